#pragma once

#include <string>

#include "format/trace_objects.h"
#include "format/trace_reader.h"
#include "replayer/core/replay_device.h"
#include "replayer/opencl/cl_handle.h"

namespace msprof::replay::opencl {

struct BuiltProgram {
  ClProgram program;
  std::string origin;  // "binary", "source", "il" or "builtin"
  std::string note;    // set when a preferred way failed and another was used
};

// Builds a recorded program for the replay device: from the device binary
// the recording driver produced when the device and driver are the same,
// else from the source or IL with the recorded build options.
BuiltProgram build_program(cl_context context, cl_device_id device,
                           const DeviceDescription& description, const trace::Program& program,
                           const trace::TraceInfo& info, const trace::TraceReader& reader);

}  // namespace msprof::replay::opencl
