#pragma once

// The two kernels the replay benches record ("add": c = a + b; "scale":
// x *= s) and the objects of a trace of them, written by TraceWriter:
// context 1, program 2, kernels add 3 and scale 4, four read-write buffers
// 10-13 of `buffer_bytes` each, queue 20. The benches add their own range.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdint>

#include "format/trace_version.h"
#include "format/trace_writer.h"

namespace msprof::bench {

inline constexpr const char* kAddScaleSource = R"CL(
__kernel void add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0); c[i] = a[i] + b[i]; }
__kernel void scale(__global float* x, float s) { size_t i = get_global_id(0); x[i] = x[i] * s; }
)CL";

inline void write_add_scale_objects(trace::TraceWriter& writer, const trace::DeviceInfo& device,
                                    std::uint64_t buffer_bytes) {
  trace::TraceInfo info;
  info.schema_version = trace::kSchemaVersion;
  info.min_reader_version = trace::kMinReaderVersion;
  info.api = "opencl";
  info.devices = {device};
  writer.write(info);
  writer.write(trace::Context{1, {0}});
  trace::Program program;
  program.id = 2;
  program.context = 1;
  program.sources = {kAddScaleSource};
  writer.write(program);
  writer.write(trace::Kernel{3, 2, "add", 3, {}});
  writer.write(trace::Kernel{4, 2, "scale", 2, {}});
  for (trace::CaptureId id : {10, 11, 12, 13}) {
    writer.write(trace::Buffer{id, 1, CL_MEM_READ_WRITE, buffer_bytes, 0, 0, std::nullopt});
  }
  writer.write(trace::Queue{20, 1, 0, 0, false, false});
}

}  // namespace msprof::bench
