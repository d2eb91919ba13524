#include "replayer/core/terminal_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "replayer/core/summary_csv.h"

namespace msprof::replay {

namespace {

using Row = std::vector<std::string>;

std::string layout(const std::vector<Row>& rows) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string verification_text(const Verification& v) {
  std::string text(verification_status_name(v.status));
  for (const auto& b : v.buffers) {
    if (b.equal) continue;
    char buf[160];
    std::snprintf(buf, sizeof buf, " (buffer %llu: first index %llu, %llu differ, max abs %g)",
                  static_cast<unsigned long long>(b.buffer),
                  static_cast<unsigned long long>(b.first_index),
                  static_cast<unsigned long long>(b.differing), b.max_abs);
    text += buf;
    break;
  }
  return text;
}

// How the range's programs were made on the replay device, in words.
std::string program_text(const std::string& origins) {
  std::string out;
  std::istringstream list(origins);
  for (std::string origin; std::getline(list, origin, ',');) {
    const std::string text = origin == "binary"    ? "the recorded device binary"
                             : origin == "source"  ? "rebuilt from source"
                             : origin == "il"      ? "rebuilt from IL"
                             : origin == "builtin" ? "the device's built-in kernels"
                                                   : origin;
    out += (out.empty() ? "" : " and ") + text;
  }
  return out.empty() ? "none" : out;
}

}  // namespace

std::string terminal_table(const ReplayResult& result) {
  std::vector<Row> rows = {
      {"range", "kernel", "median_us", "min_us", "max_us", "GB/s", "x original", "verification"}};
  std::string skipped, programs;
  for (const auto& r : result.ranges) {
    if (r.outcome != RangeOutcome::Replayed) {
      skipped += "  " + r.name + ": " + std::string(range_outcome_name(r.outcome)) + ", " +
                 r.reason + "\n";
      continue;
    }
    programs += "  " + r.name + ": " + program_text(r.program_source) + "\n";
    const std::string verification = verification_text(r.verification);
    for (const auto& k : r.kernels) {
      rows.push_back({r.name, k.name, format_number(k.duration_us.median),
                      format_number(k.duration_us.min), format_number(k.duration_us.max),
                      format_number(k.bandwidth_gbps),
                      k.original_us > 0 ? format_number(k.ratio_to_original) : "-", verification});
    }
    rows.push_back({r.name, "(range wall)", format_number(r.wall_us.median),
                    format_number(r.wall_us.min), format_number(r.wall_us.max), "", "",
                    verification});
  }
  std::string out = "device " + std::to_string(result.device.index) + ": " + result.device.name +
                    " (" + result.device.platform + ", driver " + result.device.driver + ")\n";
  if (!result.cache_clear.empty())
    out += "cache cleared before each pass: " + result.cache_clear + "\n";
  if (!result.thread_placement.empty()) out += "device threads: " + result.thread_placement + "\n";
  if (rows.size() > 1) out += layout(rows);
  if (!programs.empty()) out += "programs:\n" + programs;
  if (!skipped.empty()) out += "not replayed:\n" + skipped;
  return out;
}

}  // namespace msprof::replay

namespace msprof::replay {

std::string range_listing(const std::vector<trace::Range>& ranges) {
  std::vector<Row> rows = {{"order", "range", "status", "commands", "kernels", "reason"}};
  for (const auto& r : ranges) {
    std::size_t kernels = 0;
    for (const auto& c : r.commands) kernels += std::holds_alternative<trace::KernelLaunch>(c.body);
    rows.push_back({std::to_string(r.order), r.name,
                    std::string(trace::range_status_name(r.status)),
                    std::to_string(r.commands.size()), std::to_string(kernels), r.status_reason});
  }
  return layout(rows);
}

}  // namespace msprof::replay
