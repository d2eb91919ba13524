#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "format/trace_record.h"

namespace msprof::test {

// A trace shaped like the recorder's reference example (pyopencl: axpbyz,
// multiply, divide, fabs_kernel over three float buffers) with a range of
// every status, and fixed contents, so analyzer output is the same on
// every run.
struct ExampleTrace {
  std::vector<trace::Record> records;
  std::vector<std::vector<std::byte>> blobs;
  std::vector<float> a, b, sum, product, quotient;  // buffer contents, 16 floats each
};

ExampleTrace make_example_records();
ExampleTrace write_example_trace(const std::filesystem::path& path);

}  // namespace msprof::test
