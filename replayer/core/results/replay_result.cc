#include "replayer/core/results/replay_result.h"

namespace msprof::replay {

std::string_view range_outcome_name(RangeOutcome outcome) {
  switch (outcome) {
    case RangeOutcome::Replayed:
      return "replayed";
    case RangeOutcome::Skipped:
      return "skipped";
    case RangeOutcome::Failed:
      return "failed";
    case RangeOutcome::Empty:
      return "empty";
  }
  return "skipped";
}

const GroupCounts* KernelResult::counts_of(MetricGroup group) const {
  for (const auto& c : counts) {
    if (c.group == group) return &c;
  }
  return nullptr;
}

const GroupCounts* VariantLaunchCounts::counts_of(MetricGroup group) const {
  for (const auto& c : counts) {
    if (c.group == group) return &c;
  }
  return nullptr;
}

const std::string* MetricsSummary::backend_of(MetricGroup group) const {
  for (std::size_t i = 0; i < groups.size() && i < backends.size(); ++i) {
    if (groups[i] == group) return &backends[i];
  }
  return nullptr;
}

const VariantResult* RangeResult::best_variant() const {
  const VariantResult* best = nullptr;
  for (const auto& v : variants) {
    if (!v.acceptable() || v.passes_measured() == 0) continue;
    if (best == nullptr || v.ratio < best->ratio) best = &v;
  }
  return best;
}

bool ReplayResult::any_replayed() const {
  for (const auto& r : ranges) {
    if (r.outcome == RangeOutcome::Replayed) return true;
  }
  return false;
}

bool ReplayResult::any_failure() const {
  for (const auto& r : ranges) {
    if (r.outcome == RangeOutcome::Failed) return true;
    if (r.outcome == RangeOutcome::Replayed && !r.verification.acceptable()) return true;
    for (const auto& v : r.variants) {
      if (!v.acceptable()) return true;
    }
  }
  return false;
}

}  // namespace msprof::replay
