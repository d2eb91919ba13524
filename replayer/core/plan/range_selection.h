#pragma once

#include <string>
#include <vector>

#include "format/trace_range.h"

namespace msprof::replay {

// Which ranges a replay covers. Patterns are range names, '|' separated as
// the reference tool's --mstx-include, where '*' matches any run of
// characters. A pattern that matches no range of the trace is a UsageError
// that lists the names the trace has.
struct RangeFilter {
  std::vector<std::string> include;  // empty: every range
  std::vector<std::string> exclude;
};

struct SelectedRange {
  const trace::Range* range = nullptr;
  bool replayable = false;
  std::string skip_reason;  // "truncated", "ignored: ...", "not replayable: ..."
};

// Splits "a|b" (and repeated options) into patterns, dropping empty ones.
std::vector<std::string> split_patterns(const std::vector<std::string>& values);
bool name_matches(const std::string& pattern, const std::string& name);

// The selected ranges in program order, replayable or with why not.
std::vector<SelectedRange> select_ranges(const std::vector<trace::Range>& ranges,
                                         const RangeFilter& filter, const std::string& trace_name);

std::string skip_reason_of(const trace::Range& range);

}  // namespace msprof::replay
