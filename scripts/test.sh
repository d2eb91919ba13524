#!/usr/bin/env bash
# The whole test suite: set-up, unit and end-to-end tests in the release
# build, every command of docs/guide.md, a subset of pyopencl's own test
# suite recorded and replayed, the tests again under ASan+UBSan
# (any sanitizer report fails), and the trace reader's fuzzer for a bounded
# time on its checked-in corpus.
#   FUZZ_SECONDS=600 scripts/test.sh   fuzz longer
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --asan --fuzz

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

echo "== tests (release)"
ctest --preset release -j2
echo "== the commands of docs/guide.md"
scripts/check_guide.sh
echo "== pyopencl's own tests, recorded and replayed (a subset)"
python3 scripts/pyopencl_suite.py --subset ci
echo "== tests (ASan+UBSan)"
ctest --preset asan -j2

echo "== fuzzing the trace reader for ${FUZZ_SECONDS:-30}s"
corpus=tests/fuzz/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/fuzz/tests/fuzz/trace_reader_fuzzer -max_total_time="${FUZZ_SECONDS:-30}" \
  -rss_limit_mb=2048 -timeout=10 -print_final_stats=0 "$work" "$corpus" 2>"$work/fuzz.log" ||
  { tail -40 "$work/fuzz.log"; echo "fuzzer found a failure"; exit 1; }
grep -E "^#[0-9]+.*DONE" "$work/fuzz.log" | tail -1 || true
echo "all tests passed"
