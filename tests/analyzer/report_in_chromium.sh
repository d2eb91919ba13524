#!/usr/bin/env bash
# report_in_chromium.sh MSPROF_ANALYZE DATA_DIR OUT_DIR
# Renders the HTML report in headless Chromium and checks the rendered page:
# its SVG charts and table rows. Keeps report.html, dom.html and report.png
# in OUT_DIR. Exits 77 (ctest: skipped) when chromium is not installed.
set -euo pipefail
analyze=$1 data=$2 out=$3
mkdir -p "$out"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium is not installed: skipping (apt-get install chromium)"
  exit 77
fi
"$analyze" report "$data/OPPROF_20261202181500_000001" "$data/OPPROF_20261202181600_000002" -f -o "$out/report.html"
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$out/profile")
if ! timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$out/report.html" >"$out/dom.html" 2>"$out/chromium.log" ||
   ! grep -q "</html>" "$out/dom.html"; then
  # Installed but not rendering is a failure: scripts/setup.sh installs it
  # for exactly this test.
  echo "FAIL: chromium did not render the report:"
  tail -5 "$out/chromium.log"
  exit 1
fi
timeout 120 "$browser" "${flags[@]}" --screenshot="$out/report.png" --window-size=1400,1000 \
  "file://$out/report.html" >>"$out/chromium.log" 2>&1 || true

fail=0
expect() {  # expect WHAT COUNT: the rendered page has COUNT matches of WHAT
  local n
  n=$( (grep -o "$1" "$out/dom.html" || true) | wc -l)
  if [ "$n" -ne "$2" ]; then echo "FAIL: '$1' appears $n times, expected $2"; fail=1; fi
}
expect_at_least() {
  local n
  n=$( (grep -o "$1" "$out/dom.html" || true) | wc -l)
  if [ "$n" -lt "$2" ]; then echo "FAIL: '$1' appears $n times, expected at least $2"; fail=1; fi
}
expect '<svg class="chart bars"' 2
expect '<svg class="chart lines"' 2
expect '<svg class="chart grouped"' 3
expect_at_least '<rect class="bar"' 16
expect_at_least '<polyline class="series"' 4
expect '<table class="kernels"' 2
expect '<table class="comparison"' 1
# 2 ranges x 2 kernels + headers, and 8 comparison rows + header.
expect_at_least '<tr>' 21
expect '<script' 0
if [ ! -s "$out/report.png" ]; then echo "FAIL: no screenshot"; fail=1; fi
[ "$fail" -eq 0 ] && echo "report renders in chromium: $out/report.png"
exit "$fail"
