#include "replayer/core/plan/range_selection.h"

#include <algorithm>

#include "replayer/core/replay_error.h"

namespace msprof::replay {

namespace {

bool glob(const char* p, const char* s) {
  for (; *p != '\0'; ++p, ++s) {
    if (*p == '*') {
      for (const char* rest = s;; ++rest) {
        if (glob(p + 1, rest)) return true;
        if (*rest == '\0') return false;
      }
    }
    if (*s != *p) return false;
  }
  return *s == '\0';
}

void check_known(const std::vector<std::string>& patterns, const std::vector<trace::Range>& ranges,
                 const std::string& trace_name) {
  for (const auto& pattern : patterns) {
    const bool found = std::any_of(ranges.begin(), ranges.end(), [&](const trace::Range& r) {
      return name_matches(pattern, r.name);
    });
    if (found) continue;
    std::string names;
    for (const auto& r : ranges) {
      if (names.find("'" + r.name + "'") != std::string::npos) continue;
      names += (names.empty() ? "" : ", ") + ("'" + r.name + "'");
    }
    throw UsageError("no range named '" + pattern + "' in " + trace_name +
                     "; ranges: " + (names.empty() ? "(none)" : names));
  }
}

}  // namespace

std::vector<std::string> split_patterns(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& value : values) {
    std::size_t start = 0;
    while (start <= value.size()) {
      std::size_t end = value.find('|', start);
      if (end == std::string::npos) end = value.size();
      if (end > start) out.push_back(value.substr(start, end - start));
      start = end + 1;
    }
  }
  return out;
}

bool name_matches(const std::string& pattern, const std::string& name) {
  return glob(pattern.c_str(), name.c_str());
}

std::string skip_reason_of(const trace::Range& range) {
  if (range.status == trace::RangeStatus::Complete) return "";
  std::string reason(trace::range_status_name(range.status));
  if (!range.status_reason.empty()) reason += ": " + range.status_reason;
  return reason;
}

std::vector<SelectedRange> select_ranges(const std::vector<trace::Range>& ranges,
                                         const RangeFilter& filter, const std::string& trace_name) {
  check_known(filter.include, ranges, trace_name);
  check_known(filter.exclude, ranges, trace_name);
  const auto any_match = [](const std::vector<std::string>& patterns, const std::string& name) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return name_matches(p, name); });
  };
  std::vector<SelectedRange> out;
  for (const auto& range : ranges) {
    if (!filter.include.empty() && !any_match(filter.include, range.name)) continue;
    if (any_match(filter.exclude, range.name)) continue;
    SelectedRange selected;
    selected.range = &range;
    selected.skip_reason = skip_reason_of(range);
    selected.replayable = selected.skip_reason.empty();
    out.push_back(std::move(selected));
  }
  return out;
}

}  // namespace msprof::replay
