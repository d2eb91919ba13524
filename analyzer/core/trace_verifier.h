#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "format/trace_reader.h"

namespace msprof::analyze {

struct VerifyReport {
  std::string path;
  bool recovered = false;  // no usable trailer or index: the recording did not finish
  std::size_t frames = 0, records = 0, chunks = 0, blobs = 0, ranges = 0;
  std::vector<std::string> problems;  // each makes the trace unsound
  std::vector<std::string> notes;     // worth knowing, harmless
  bool sound() const { return problems.empty(); }
};

// Reads every frame (checksums, schema), every blob manifest and chunk
// (content hashes), and checks that every blob and object a record names is
// in the trace. Damage is reported, never thrown.
VerifyReport verify_trace(const trace::TraceReader& reader, const std::string& display_path);
std::string verify_text(const VerifyReport& report);
nlohmann::ordered_json verify_json(const VerifyReport& report);

}  // namespace msprof::analyze
