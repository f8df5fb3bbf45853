#!/usr/bin/env bash
# The web viewer in headless Chromium (tests/web/viewer.mjs says what is
# checked), served by `ferry view` from the page `make web` built.
#   bash tests/web/viewer.sh FERRY SRC PAGE_DIR
# Skips (77) when Debian's chromium, node, tests/render/node_modules
# (playwright-core: cd tests/render && npm ci) or the page (make web) is
# missing; under FERRY_REQUIRE_ALL that is a failure (tests/cli/lib.bash).
# FERRY_WEB_KEEP=DIR keeps the screenshots there.
set -u
FERRY=$1 SRC=$2 PAGE=$3
chromium=${CHROMIUM:-/usr/bin/chromium}
. "$SRC/tests/cli/lib.bash"
if ! command -v node >/dev/null 2>&1 || [ ! -x "$chromium" ]; then
  skip "node or $chromium is not installed (apt-get install chromium nodejs)"
fi
if [ ! -d "$SRC/tests/render/node_modules/playwright-core" ]; then
  skip "tests/render/node_modules is missing: run (cd tests/render && npm ci)"
fi
if [ ! -f "$PAGE/ferry.wasm" ] || [ ! -f "$PAGE/index.html" ]; then
  skip "the web viewer is not built in $PAGE: run make web"
fi
export CHROMIUM=$chromium
status=0
node "$SRC/tests/web/viewer.mjs" "$FERRY" "$SRC" "$PAGE" "$tmp/work" || status=$?
if [ -n "${FERRY_WEB_KEEP:-}" ]; then
  mkdir -p "$FERRY_WEB_KEEP" && cp "$tmp"/work/*.png "$tmp"/work/shots/*.png "$FERRY_WEB_KEEP"/ 2>/dev/null
  echo "screenshots kept in $FERRY_WEB_KEEP"
fi
exit "$status"
