#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "recorder/launcher/child_process.h"

namespace msprof::record {

// What the recorder said about writing the trace, through the status pipe.
struct WriteReport {
  std::optional<std::size_t> finished;  // ranges the program finished, when it said
  std::string error;                    // its first write failure, empty when none
};

// Reads one status line into the report; false when the line is not about
// writing the trace.
bool read_write_report(const std::string& line, WriteReport& report);

// Whether the failure to write `output` is a full file system: the error
// says so, or the output's file system has no space left.
bool no_space_left(const std::filesystem::path& output, const std::string& error);

// The one-line error when the trace lost ranges or could not be written:
// the problem, what is left ("no trace written" or "the trace keeps K of the
// N range(s) the program finished"), how the program ended, and the fix.
std::string trace_loss_text(const std::filesystem::path& output, const std::string& error,
                            const std::string& outcome, const ChildResult& child);

// The launcher's status when the trace lost ranges the program finished:
// the program's own status when it failed, 1 when it exited 0.
int trace_loss_status(const ChildResult& child);

}  // namespace msprof::record
