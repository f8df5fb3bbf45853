#!/usr/bin/env bash
# `ferry view` as a server (curl, no browser): it listens on 127.0.0.1 only,
# serves the page folder and the given files and folders, read-only, and
# answers 404 to everything else: '..' plain or percent-encoded, absolute
# paths, hidden files, folders, a link leading out of a given folder, files
# beside a given file, indices past the given paths. A foreign Host is
# refused (403), anything but GET and HEAD too (405); single byte ranges are
# served (206, 416). It stops on Ctrl-C. A stand-in page folder is used, so
# that this runs without `make web`.
#   bash tests/web/view.sh FERRY SRC
set -u
FERRY=$1 SRC=$2
. "$SRC/tests/cli/lib.bash"
command -v curl >/dev/null 2>&1 || skip "curl is not installed (apt-get install curl)"

page="$tmp/page" given="$tmp/given" outside="$tmp/outside"
mkdir -p "$page/js" "$given/sub" "$outside"
printf '<!doctype html><title>stand-in</title>\n' >"$page/index.html"
printf 'export const x = 1;\n' >"$page/js/a.js"
printf 'secret\n' >"$tmp/secret.txt"
printf 'outside\n' >"$outside/o.txt"
head -c 1000 /dev/urandom >"$given/sub/data.bin"
cp "$SRC/samples/alamo/crate.alo" "$given/crate.alo"
printf 'hidden\n' >"$given/.hidden"
ln -s "$outside/o.txt" "$given/out_link.txt"
ln -s "$outside" "$given/out_dir"
ln -s sub/data.bin "$given/in_link.bin"
cp "$SRC/samples/odol/box.p3d" "$tmp/box.p3d"
printf 'beside\n' >"$tmp/beside.txt"

expect 0 "--help" -- "$FERRY" view --help
check "--help says what is served" grep -q "127.0.0.1" "$tmp/out"
cp "$tmp/out" "$tmp/own.txt"
expect 0 "ferry help view" -- "$FERRY" help view
check "ferry help view = ferry view --help" same_output "$tmp/out" "$tmp/own.txt"
expect 0 "the overview" -- "$FERRY" --help
check "the overview names view" grep -q "^  view \[PATH...\]" "$tmp/out"
expect 2 "an unknown option is a usage error" -- "$FERRY" view --bogus
expect 2 "a bad port is a usage error" -- "$FERRY" view --port 70000
expect 1 "a missing path is refused" -- "$FERRY" view --no-open --page "$page" "$tmp/nope"
expect 1 "a page folder without index.html is refused" -- "$FERRY" view --no-open --page "$outside" "$given"
check "and says why" grep -q "no index.html" "$tmp/err"

"$FERRY" view --no-open --port 0 --page "$page" "$given" "$tmp/box.p3d" >"$tmp/view.out" 2>"$tmp/view.err" &
pid=$!
for _ in $(seq 50); do grep -q 'http://' "$tmp/view.out" && break; sleep 0.1; done
url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$tmp/view.out")
check "the address printed is on 127.0.0.1" test -n "$url"
port=${url##*:}
port=${port%/}

# Listening on the loopback address alone: /proc/net/tcp's listening sockets
# (state 0A) on this port are all 127.0.0.1 (0100007F), none on 0.0.0.0.
hexport=$(printf '%04X' "$port")
listening=$(awk -v p=":$hexport" '$4 == "0A" && substr($2, length($2) - 4) == p { print $2 }' /proc/net/tcp /proc/net/tcp6 2>/dev/null)
check "it listens on 127.0.0.1 only ($listening)" test "$listening" = "0100007F:$hexport"
# A non-loopback address of this machine, if it has one, is refused.
other=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -v '^127\.' | grep -v ':' | head -n 1)
if [ -n "$other" ]; then
  check "no answer on $other" bash -c "! curl -s -m 3 -o /dev/null http://$other:$port/"
fi

code() { curl -s --path-as-is -o "$tmp/body" -w '%{http_code}' "$@"; }
served() { local want=$1 what=$2; shift 2; local got; got=$(code "$@"); check "$what: $want (got $got)" test "$got" = "$want"; }

served 200 "the page" "$url"
check "the page is the page folder's index.html" cmp -s "$tmp/body" "$page/index.html"
served 200 "a page file" "${url}js/a.js"
served 200 "the index of the given files" "${url}files/index.json"
check "the index lists the given files" jq -e '[.files[].path] | sort == ["box.p3d", "given/crate.alo", "given/in_link.bin", "given/sub/data.bin"]' "$tmp/body" >/dev/null
jq -c '[.files[].path]' "$tmp/body" >&2
served 200 "a file of a given folder" "${url}files/0/crate.alo"
check "its bytes" cmp -s "$tmp/body" "$given/crate.alo"
served 200 "a file deeper in it" "${url}files/0/sub/data.bin"
served 200 "a link inside the folder" "${url}files/0/in_link.bin"
served 200 "a given file" "${url}files/1/box.p3d"
check "its bytes" cmp -s "$tmp/body" "$tmp/box.p3d"
served 206 "a byte range" -r 10-19 "${url}files/0/sub/data.bin"
check "the range's bytes" cmp -s "$tmp/body" <(tail -c +11 "$given/sub/data.bin" | head -c 10)
served 206 "a suffix range" -r -5 "${url}files/0/sub/data.bin"
check "the last 5 bytes" cmp -s "$tmp/body" <(tail -c 5 "$given/sub/data.bin")
served 416 "a range past the end" -r 5000-6000 "${url}files/0/sub/data.bin"

for p in "../secret.txt" "files/../../secret.txt" "files/0/../../secret.txt" "files/0/..%2f..%2fsecret.txt" \
         "files/0/%2e%2e/%2e%2e/secret.txt" "%2e%2e/%2e%2e/secret.txt" "files/0/sub/../crate.alo" "files/0/./crate.alo" \
         "files/0//crate.alo" "files/0/out_link.txt" "files/0/out_dir/o.txt" "files/0/.hidden" "files/0/sub" \
         "files/0/" "files/1/beside.txt" "files/1/../beside.txt" "files/2/x" "files/00/crate.alo" "files/-1/x" \
         "files/0/sub%5cdata.bin" "js/../index.html" "js" "secret.txt" "$tmp/secret.txt" "files/index.json/x" \
         "files/1/box.p3d/x" "nothing"; do
  served 404 "/$p is not served" "$url$p"
done
# The page reads archives by ranges: a range of anything not given is refused as the whole is.
for p in "../secret.txt" "files/0/out_link.txt" "files/1/beside.txt" "files/0/%2e%2e/%2e%2e/secret.txt"; do
  served 404 "a range of /$p is not served" -r 0-9 "$url$p"
done
served 403 "a range with a foreign Host is refused" -r 0-9 -H "Host: example.com:$port" "${url}files/0/sub/data.bin"
served 403 "a foreign Host is refused" -H "Host: example.com:$port" "$url"
served 405 "a POST is refused" -X POST "${url}files/0/crate.alo"
served 405 "a PUT is refused" -X PUT --data x "${url}files/0/new.txt"
check "nothing was written" test ! -e "$given/new.txt"

kill -INT "$pid"
status=0
wait "$pid" || status=$?
check "Ctrl-C stops it, status 0 (got $status)" test "$status" -eq 0
check "and says so" grep -q "stopped" "$tmp/view.err"
finish
