#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/core/object_table.h"
#include "format/trace_reader.h"

namespace msprof::analyze {

struct ExtractOptions {
  std::optional<std::string> range;  // all ranges when empty
  std::string dtype = "uint8";
  std::string display_path;  // the trace as the manifest names it
};

// Writes what `extract` promises into `out_dir` (created when missing):
// program sources, IL and binaries, the buffer states as .npy, and
// manifest.json tying them to ranges, kernels and arguments. Returns the
// manifest, which is also written.
nlohmann::ordered_json extract_trace(const trace::TraceReader& reader, const ObjectTable& table,
                                     const std::filesystem::path& out_dir,
                                     const ExtractOptions& options);

}  // namespace msprof::analyze
