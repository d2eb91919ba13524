#include "recorder/core/range_tracker.h"

#include <algorithm>

namespace msprof::record {

bool RangeTracker::selected(std::string_view name) const {
  if (!include_.empty() && !include_.matches(name)) return false;
  return exclude_.empty() || !exclude_.matches(name);
}

RangeTracker::Start RangeTracker::start(std::string_view domain, std::string_view name) {
  Start s;
  s.id = next_id_++;
  s.order = next_order_++;
  std::string key(domain);
  key += '\x1f';
  key += name;
  if (open_) {
    ignored_open_.insert(s.id);
    // Reported (warning and marker) inside a captured range, and once per
    // name elsewhere: a nested range in a loop must not cost every iteration.
    const bool first_nested = ignored_.insert(key + '\x1f' + open_->name).second;
    if (open_->action == Action::Capture || first_nested) {
      s.action = Action::Ignore;
      s.reason = "opened inside range '" + open_->name + "'";
    }
    return s;
  }
  const bool first = done_.insert(key).second;
  s.action = first && selected(name) ? Action::Capture : Action::Pass;
  if (s.action == Action::Capture) {
    const int hit = include_.which(name);
    if (hit >= 0) include_hit_[static_cast<std::size_t>(hit)] = true;
  }
  open_ = Open{s.id, std::string(name), s.action};
  return s;
}

RangeTracker::End RangeTracker::end(std::uint64_t id) {
  if (ignored_open_.erase(id) > 0) return {true, false};
  if (!open_ || open_->id != id) return {false, false};
  const bool captured = open_->action == Action::Capture;
  open_.reset();
  return {true, captured};
}

bool RangeTracker::all_included_captured() const {
  return !include_hit_.empty() &&
         std::all_of(include_hit_.begin(), include_hit_.end(), [](bool b) { return b; });
}

}  // namespace msprof::record
