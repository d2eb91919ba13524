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
