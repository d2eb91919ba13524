#!/usr/bin/env bash
# The main job end to end on the default device (PoCL, OpenCL on the CPU):
# set up, record the reference example, show what the trace holds, and
# replay range1 ten times with its cache context kept, printing the table.
# Everything it writes goes to ./demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mkdir -p demo
echo "== msprof-record python3 examples/test.py"
msprof-record -f -o demo/trace.fb python3 examples/test.py
echo "== msprof-analyze info demo/trace.fb"
msprof-analyze info demo/trace.fb
echo "== msprof-replay demo/trace.fb --include range1 --launch-count 10"
msprof-replay demo/trace.fb --include range1 --launch-count 10 --output demo
