# Shared by the CLI tests: run the tool, check its exit status and output.
# Sourced with FERRY (the binary), SRC (the repository) and SHARED set.
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect STATUS DESCRIPTION -- COMMAND...: runs COMMAND, keeps its stdout and
# stderr in $tmp/out and $tmp/err, and checks the exit status.
expect() {
  local want=$1 what=$2
  shift 3
  local got=0
  "$@" >"$tmp/out" 2>"$tmp/err" || got=$?
  if [ "$got" -eq "$want" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what: exit $got, expected $want: $*" >&2
    head -n 5 "$tmp/err" >&2
  fi
}

# check DESCRIPTION COMMAND...: a condition that must hold.
check() {
  local what=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what" >&2
  fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# A copy of $FERRY that an unprivileged user (setpriv to nobody) can run:
# the build may lie where only its owner can reach it (root's home, a
# folder made by mktemp -d), which made such checks fail with "Permission
# denied" (exit 126). Prints its path, or nothing when the copy cannot be
# made or run (the caller skips, saying why).
ferry_for_user() {
  local copy="$tmp/bin/ferry"
  if [ ! -x "$copy" ]; then
    mkdir -p "$tmp/bin" && cp "$FERRY" "$copy" && chmod 755 "$tmp" "$tmp/bin" "$copy" || return 0
  fi
  as_user "$copy" help >/dev/null 2>&1 && echo "$copy"
}
