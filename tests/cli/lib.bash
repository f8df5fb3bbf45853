# Shared by the CLI tests: run the tool, check its exit status and output.
# Sourced with FERRY (the binary), SRC (the repository) and SHARED set.
# With FERRY_REQUIRE_ALL set (CI, which has ../shared and installs every
# tool the tests use), a test that cannot run or leaves a part out fails
# instead of skipping: there, nothing may pass by not running.
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

# expect_out FILE STATUS DESCRIPTION -- COMMAND...: expect, then keeps the
# command's stdout in FILE, for a comparison with another run's.
expect_out() {
  local keep=$1
  shift
  expect "$@"
  cp "$tmp/out" "$keep"
}

# same_output A B: both files hold something and are byte for byte the same
# (two empty files, the output of two failed runs, are not "the same").
same_output() { [ -s "$1" ] && [ -s "$2" ] && cmp -s "$1" "$2"; }

require_all() { [ -n "${FERRY_REQUIRE_ALL:-}" ] && [ "$FERRY_REQUIRE_ALL" != 0 ]; }

# skip REASON: the test cannot run here: exit 77 (ctest: skipped), or a
# failure (exit 1) under FERRY_REQUIRE_ALL.
skip() {
  if require_all; then
    echo "FAIL: FERRY_REQUIRE_ALL is set, but the test cannot run: $*" >&2
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}

# left_out REASON: one part of the test is not run here: a note, or a
# failed check under FERRY_REQUIRE_ALL.
left_out() {
  if require_all; then
    failed=$((failed + 1))
    echo "FAIL: FERRY_REQUIRE_ALL is set, but a part was left out: $*" >&2
  else
    echo "note: left out: $*"
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
