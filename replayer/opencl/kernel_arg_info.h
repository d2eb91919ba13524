#pragma once

#include <string>
#include <vector>

#include "format/trace_objects.h"
#include "format/trace_reader.h"
#include "replayer/opencl/cl_handle.h"

namespace msprof::replay::opencl {

// Drivers give argument information (names, type names, qualifiers) only
// for programs built with -cl-kernel-arg-info. This builds a twin of the
// program from its source or IL with that option added, apart from the one
// the range runs, so what is measured is untouched. A null program when it
// has neither or the twin does not build.
ClProgram build_arg_info_twin(cl_context context, cl_device_id device,
                              const trace::Program& program, const trace::TraceReader& reader);

// The argument information of a kernel of such a program; empty when the
// driver gives none.
std::vector<trace::KernelArgInfo> kernel_arg_info(cl_program program,
                                                  const std::string& kernel_name);

}  // namespace msprof::replay::opencl
