#!/usr/bin/env bash
# The CLI's shell tests (tests/cli/*.sh) against ferry.exe under wine: each
# test is given, as its FERRY, a wrapper that runs WINDOWS_BUILD/ferry.exe
# with wine. Paths need no conversion: wine gives a path that starts with
# '/' the DOS name of that file (Z:\...), so the tests' Unix paths reach
# ferry.exe as they are (docs/cross-building.md).
#
#   bash tests/windows/cli.sh SRC WINDOWS_BUILD [TEST...]
#
# TEST: names without .sh (default: every tests/cli/*.sh; CLI_TESTS in the
# environment names them too). Tests that cannot run against ferry.exe are
# listed with the reason (not_run below) and counted; checks that fail on
# Windows for a known reason (the system's words differ, a POSIX-only
# feature) are listed in tests/windows/cli_differences.txt, each with the
# test, the check's description and the reason: such a failure is counted
# as a difference, any other is a failure. A listed difference that no
# longer fails is reported, so that the list does not go stale.
# Exit 1 when a test failed for an unlisted reason.
set -u
# One brace group: bash reads it whole before running it, so editing this
# file while it runs cannot change what the running copy does.
{
SRC=$(cd "$1" && pwd) WIN=$(cd "$2" && pwd)
shift 2
here=$SRC/tests/windows
export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-${FERRY_DEPS_CACHE:-$HOME/.cache/ferry-deps}/wine}
jobs=${JOBS:-2}
[ -f "$WIN/ferry.exe" ] || { echo "windows cli: $WIN/ferry.exe is not built (make windows)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ferry-windows-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT

cat >"$work/ferry" <<WRAP
#!/usr/bin/env bash
exec wine "$WIN/ferry.exe" "\$@"
WRAP
chmod +x "$work/ferry"
# Programs some tests find beside FERRY (the fixtures' writers), the
# Windows build's, under wine too.
for prog in tests/test_alm_scene tests/test_alm make_odol_samples; do
  [ -f "$WIN/$prog.exe" ] || continue
  mkdir -p "$work/$(dirname "$prog")"
  printf '#!/usr/bin/env bash\nexec wine "%s" "$@"\n' "$WIN/$prog.exe" >"$work/$prog"
  chmod +x "$work/$prog"
done
# One wine server for every run: each ferry.exe then starts in a fraction
# of a second instead of starting a server of its own.
# It stays 10 minutes after its last program (the prefix may be shared
# with other runs, so it is not stopped here).
wineserver -p 600 2>/dev/null || true

# Tests that cannot run against ferry.exe, and why.
declare -A not_run=(
  [install]="builds and installs the Linux library and links programs against it (tests/windows/library.sh does that for Windows)"
  [assimp]="FBX, OBJ and Collada input needs Assimp, which the Windows build does not have"
  [assimp_blender]="FBX, OBJ and Collada input needs Assimp, which the Windows build does not have"
  [gltf_validator]="the Khronos validator (node) over ferry's output: it checks the files ferry writes, and ferry.exe writes the Linux build's bytes (cli_outputs.sh), which the Linux run validates"
  [render_blender]="Blender over ferry's output (minutes): it checks the files ferry writes, and ferry.exe writes the Linux build's bytes (cli_outputs.sh), which the Linux run checks"
  [render_threejs]="Chromium over ferry's output: it checks the files ferry writes, and ferry.exe writes the Linux build's bytes (cli_outputs.sh), which the Linux run checks"
  [gltf_alo_blender]="Blender over ferry's output (minutes): it checks the files ferry writes, and ferry.exe writes the Linux build's bytes (cli_outputs.sh), which the Linux run checks"
  [gltf_alo_alamo_plugin]="Blender's ALAMO plugin over ferry's output (minutes): it checks the files ferry writes, and ferry.exe writes the Linux build's bytes (cli_outputs.sh), which the Linux run checks"
)

if [ $# -eq 0 ] && [ -n "${CLI_TESTS:-}" ]; then
  # shellcheck disable=SC2086
  set -- $CLI_TESTS
fi
if [ $# -eq 0 ]; then
  for t in "$SRC"/tests/cli/*.sh; do set -- "$@" "$(basename "$t" .sh)"; done
fi

run_one() {
  local t=$1 start=$SECONDS status=0
  FERRY_REQUIRE_ALL= timeout 1200 bash "$SRC/tests/cli/$t.sh" "$work/ferry" "$SRC" "$(cd "$SRC/.." && pwd)/shared" \
    >"$work/$t.log" 2>&1 || status=$?
  echo "$status $((SECONDS - start))" >"$work/$t.status"
}
export -f run_one
export SRC work

todo=()
for t in "$@"; do
  [ -f "$SRC/tests/cli/$t.sh" ] || { echo "windows cli: no test tests/cli/$t.sh" >&2; exit 1; }
  [ -n "${not_run[$t]:-}" ] || todo+=("$t")
done
start=$SECONDS
printf '%s\n' "${todo[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}'

status=0 passed=0 failed=0 differences=0 tests_ok=0
: >"$work/seen"
for t in "${todo[@]}"; do
  read -r code secs <"$work/$t.status"
  counts=$(tr -d '\r' <"$work/$t.log" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  p=${counts%% passed*} f=${counts#*, }
  f=${f%% failed}
  [ -n "$counts" ] || { p=0; f=0; }
  unlisted=0 listed=0
  while IFS= read -r line; do
    what=${line#FAIL: }
    what=${what%%: exit *}
    reason=$(awk -F'\t' -v t="$t" -v w="$what" '$1 == t && $2 == w { print $3; exit }' "$here/cli_differences.txt")
    if [ -n "$reason" ]; then
      listed=$((listed + 1))
      printf '%s\t%s\n' "$t" "$what" >>"$work/seen"
    else
      unlisted=$((unlisted + 1))
      echo "windows cli: $t: $line" >&2
    fi
  done < <(tr -d '\r' <"$work/$t.log" | grep '^FAIL: ')
  passed=$((passed + p)) differences=$((differences + listed))
  if [ "$code" = 77 ]; then
    echo "windows cli: $t: skipped: $(grep -m1 '^SKIP' "$work/$t.log")"
  elif [ "$unlisted" -gt 0 ] || { [ "$code" != 0 ] && [ "$listed" -eq 0 ]; } || [ -z "$counts" ]; then
    status=1 failed=$((failed + unlisted))
    echo "windows cli: $t: FAILED (exit $code, $p passed, $unlisted unexpected failures, $listed known differences, ${secs} s); log:" >&2
    tail -n 15 "$work/$t.log" >&2
  else
    tests_ok=$((tests_ok + 1))
    echo "windows cli: $t: $p checks passed, $listed known difference(s), ${secs} s"
  fi
done

# Listed differences of the tests run here that did not show up.
while IFS=$'\t' read -r t what reason; do
  case "$t" in ''|'#'*) continue ;; esac
  printf '%s\n' "${todo[@]}" | grep -qx "$t" || continue
  grep -qxF "$(printf '%s\t%s' "$t" "$what")" "$work/seen" ||
    echo "windows cli: $t: listed difference no longer seen (take it out of cli_differences.txt): $what"
done <"$here/cli_differences.txt"

all=$(ls "$SRC"/tests/cli/*.sh | wc -l)
runnable=$((all - ${#not_run[@]}))
if [ "${#todo[@]}" -lt "$runnable" ]; then
  echo "windows cli: a sample: ${#todo[@]} of the $runnable scripts that can run against ferry.exe were run (${todo[*]}); the other $((runnable - ${#todo[@]})) were not run here"
fi
echo "windows cli: ${#not_run[@]} test(s) cannot run against ferry.exe:"
for t in $(printf '%s\n' "${!not_run[@]}" | sort); do echo "  $t: ${not_run[$t]}"; done
echo "windows cli: $tests_ok of ${#todo[@]} test scripts passed under wine, $passed checks passed, $differences known difference(s) (cli_differences.txt), $failed unexpected failure(s), $((SECONDS - start)) s"
exit "$status"
}
