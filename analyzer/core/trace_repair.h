#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "format/trace_reader.h"

namespace msprof::analyze {

struct RepairReport {
  std::size_t records = 0, blobs = 0;
  std::vector<std::string> dropped;  // what could not be carried over, and why
};

// Writes every whole record and blob of `reader` into a new, complete trace
// at `out` (index and trailer included). A blob whose chunks are damaged is
// left out, and so is every record that names it, so the copy is sound.
RepairReport repair_trace(const trace::TraceReader& reader, const std::filesystem::path& out);

}  // namespace msprof::analyze
