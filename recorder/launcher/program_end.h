#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "recorder/launcher/child_process.h"

namespace msprof::record {

// Whether a signal ended the program (a crash, an abort, a kill), not the
// end --kill on gave it once every included range was captured. A program
// that exits, whatever its status, ran its exit handlers: the recorder
// finished its trace.
bool program_died(const ChildResult& child);

// How the program ended, for a message after "the program ": "was killed
// by signal 6 (SIGABRT)", "exited with status 3", "exited".
std::string program_end_text(const ChildResult& child);

// The ranges a trace being written holds that the program finished
// (complete or not replayable), read by a scan as after a crash; 0 for a
// file that is missing or has no whole header.
std::size_t finished_ranges(const std::filesystem::path& trace);

}  // namespace msprof::record
