#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "format/trace_objects.h"

namespace msprof::test {

// Capture ids of the synthetic trace's objects, for tests that look inside.
namespace synthetic {
inline constexpr trace::CaptureId kBufferA = 10, kBufferB = 11, kBufferC = 12, kBufferX = 13,
                                  kParent = 14, kSubBuffer = 15, kInts = 16, kSums = 17,
                                  kBufferE = 18;
inline constexpr std::size_t kElements = 1024;
inline constexpr std::size_t kGroup = 64;
// Kernel launches of "range1", in order, and of "inplace".
inline const std::vector<std::string> kRange1Kernels = {"add", "negate", "scale", "group_sum",
                                                        "scale"};
}  // namespace synthetic

struct SyntheticOptions {
  // Put the binary the local driver builds into built_binaries, so replay
  // can skip compilation.
  bool with_binaries = false;
  // Record a device other than the local one, so replay must fall back.
  std::string device_name;  // empty: the local device's name
  // Make element 7 of buffer E wrong in the final state of "range1".
  bool wrong_final_state = false;
  // Make element 3 of the int32 buffer kSums wrong by 3.
  bool wrong_int_final_state = false;
  bool final_state = true;
  // Write the trace the way a killed recorder leaves it: no index, no
  // trailer, "range1" complete and a range cut off by the kill.
  bool killed = false;
  // Elements of each float buffer (a multiple of kGroup): more than the
  // default makes buffers of several MiB, restored in pieces.
  std::size_t elements = synthetic::kElements;
  // The name of "range1": a trace's names may hold anything (escapes, newlines).
  std::string range1_name = "range1";
};

// Writes a trace for the local OpenCL device with the ranges
//   range1     complete: a host write, a fill, kernels on two queues with
//              wait lists between them, a copy into a sub-buffer, a kernel
//              with a __local argument, marker, barrier, read, host wait
//   inplace    complete: one in-place kernel (restore must work)
//   cut        truncated     (not with `killed`: then it is simply missing)
//   nested     ignored: opened inside range1
//   svm        not replayable: clEnqueueSVMMap
// with initial and final states computed on the host, bit-exact.
void write_synthetic_trace(const std::filesystem::path& path, const SyntheticOptions& options = {});

// Runs `command` through the shell; returns its exit status, with stdout and
// stderr in the strings.
int run_command(const std::string& command, std::string& out, std::string& err);

std::string read_text(const std::filesystem::path& path);

}  // namespace msprof::test
