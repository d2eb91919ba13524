#pragma once

#include <filesystem>
#include <string>

#include "tests/recorder/record_run.h"

namespace msprof::test {

// An example program recorded by msprof-record.
struct RecordedExample {
  std::filesystem::path trace;
  RunResult record;  // what msprof-record returned and printed
};

// Records each example at most once per test binary run, into one temporary
// folder that lives until the binary exits: recording is the slow part, and
// the traces are only ever read (tests that damage one copy it first).
// `name` is a Python script under examples/ ("test.py") or a built C
// example ("example_clblast_gemm"). The recording must have succeeded.
const RecordedExample& recorded(const std::string& name);

}  // namespace msprof::test
