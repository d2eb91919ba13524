#pragma once

#include <string>

#include "format/trace_objects.h"
#include "format/trace_reader.h"
#include "replayer/core/device/replay_device.h"
#include "replayer/opencl/cl_handle.h"

namespace msprof::replay::opencl {

struct BuiltProgram {
  ClProgram program;
  std::string origin;  // "binary", "source", "il" or "builtin"
  std::string note;    // set when a preferred way failed and another was used
};

// A program made (not built) from the recorded source, else IL; `origin`
// says which. Null with err CL_SUCCESS when the trace has neither; null
// with the driver's error when it refuses them.
ClProgram program_from_source_or_il(cl_context context, const trace::Program& program,
                                    const trace::TraceReader& reader, std::string& origin,
                                    cl_int& err);

// The driver's build log of the program for the device, whole.
std::string build_log_of(cl_program program, cl_device_id device);

// Builds a program made by the caller; an empty string on success, else the
// driver's error with the first lines of its log.
std::string build_made_program(const ClProgram& program, cl_device_id device,
                               const std::string& options);

// Builds a recorded program for the replay device: from the device binary
// the recording driver produced when the device and driver are the same
// (unless `rebuild`, or the program has no source or IL to rebuild from),
// else from the source or IL with the recorded build options.
BuiltProgram build_program(cl_context context, cl_device_id device,
                           const DeviceDescription& description, const trace::Program& program,
                           const trace::TraceInfo& info, const trace::TraceReader& reader,
                           bool rebuild = false);

}  // namespace msprof::replay::opencl
