#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "format/trace_range.h"
#include "format/trace_reader.h"
#include "replayer/core/plan/kernel_variant.h"
#include "replayer/opencl/cl_handle.h"

namespace msprof::replay::opencl {

// What a workbench variant runs in place of the recorded range's: kernels
// (by the recorded kernel's capture id) from programs built the variant's
// way, and launch sizes.
struct VariantCode {
  std::vector<ClProgram> programs;
  std::map<trace::CaptureId, ClKernel> kernels;
  struct Sizes {
    std::optional<std::vector<std::uint64_t>> global, local;
  };
  std::map<trace::CaptureId, Sizes> sizes;
};

// The recorded programs and kernels of the range, by capture id.
struct RangeCode {
  const trace::Range& range;
  const std::map<trace::CaptureId, const trace::Program*>& programs;
  const std::map<trace::CaptureId, const trace::Kernel*>& kernels;
};

// Builds the variant for the device. VariantError, with the driver's build
// log, when its code does not build, lacks a kernel the range launches, or
// a new kernel does not take the arguments the recorded launches pass.
VariantCode build_variant(cl_context context, cl_device_id device, const Variant& variant,
                          const RangeCode& code, const trace::TraceReader& reader);

}  // namespace msprof::replay::opencl
