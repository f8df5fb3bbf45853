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
