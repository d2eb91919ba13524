#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "recorder/core/name_filter.h"

namespace msprof::record {

// The range rules, without any device: which range start is captured, which
// is passed over (filtered out, or a name already captured), and which is
// ignored (opened while another range is open, as the reference does).
class RangeTracker {
 public:
  enum class Action { Capture, Pass, Ignore };
  struct Start {
    Action action = Action::Pass;
    std::uint64_t id = 0;
    std::uint32_t order = 0;
    std::string reason;  // for Ignore
  };
  struct End {
    bool known = false;     // the id was handed out and is open
    bool captured = false;  // it ends the range being captured
  };

  RangeTracker(NameFilter include, NameFilter exclude)
      : include_(std::move(include)),
        exclude_(std::move(exclude)),
        include_hit_(include_.alternatives().size(), false) {}

  Start start(std::string_view domain, std::string_view name);
  End end(std::uint64_t id);

  bool open() const { return open_.has_value(); }
  // With an include filter: every alternative has matched a captured range.
  bool all_included_captured() const;
  bool selected(std::string_view name) const;

 private:
  struct Open {
    std::uint64_t id;
    std::string name;
    Action action;
  };
  NameFilter include_, exclude_;
  std::vector<bool> include_hit_;
  std::uint64_t next_id_ = 1;
  std::uint32_t next_order_ = 0;
  std::optional<Open> open_;
  std::set<std::string> done_;     // domain + name of ranges executed once
  std::set<std::string> ignored_;  // domain + name + outer name, reported once
  std::unordered_set<std::uint64_t> ignored_open_;
};

}  // namespace msprof::record
