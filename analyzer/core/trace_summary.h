#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "format/trace_reader.h"

namespace msprof::analyze {

struct RangeSummary {
  trace::CaptureId id = 0;
  std::string name, domain;
  std::uint32_t order = 0;
  std::string status, reason;
  std::size_t commands = 0, kernels = 0, queues = 0;
  std::uint64_t bytes_captured = 0;  // sum of the blob sizes the range names
  std::uint64_t bytes_stored = 0;    // frames of the distinct chunks of those blobs
  std::size_t missing_blobs = 0;
};

// What `info` prints. Built from metadata frames and blob manifests only, so
// its cost does not grow with the size of the captured buffers.
struct TraceSummary {
  std::string path;
  std::uint64_t file_bytes = 0;
  bool recovered = false;
  std::vector<std::string> warnings;
  trace::TraceInfo info;
  std::size_t contexts = 0, programs = 0, kernels = 0, buffers = 0, queues = 0, samplers = 0;
  std::vector<RangeSummary> ranges;
  std::uint64_t total_captured = 0, total_stored = 0;
  std::size_t total_kernels = 0;
};

TraceSummary summarize_trace(const trace::TraceReader& reader, const std::string& display_path);
std::string summary_text(const TraceSummary& summary);
nlohmann::ordered_json summary_json(const TraceSummary& summary);

// Shared by `info` and `show`: the trace-info record in JSON.
nlohmann::ordered_json trace_info_json(const trace::TraceInfo& info);

}  // namespace msprof::analyze
