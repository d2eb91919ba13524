#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/trace_objects.h"
#include "recorder/core/recorder_config.h"

namespace msprof::record {

// The trace's own description: who recorded what, where, how. The recorder
// inside the program writes it, and the launcher writes it into the trace
// of a program that never loaded the recorder, so that every trace says
// what it is. `api` is the device API whose work was captured, "none" when
// the program made no call to one.
trace::TraceInfo describe_capture(const RecorderConfig& config, std::uint64_t pid, std::string api,
                                  std::vector<trace::DeviceInfo> devices);

// The program's arguments, as the launcher passes them to the recorder
// (joined by the unit separator, which no argument of interest contains).
std::string join_command(const std::vector<std::string>& arguments);
std::vector<std::string> split_command(const std::string& joined);

}  // namespace msprof::record
