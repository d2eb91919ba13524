#include "replayer/core/replay_result.h"

namespace msprof::replay {

std::string_view verification_status_name(VerificationStatus status) {
  switch (status) {
    case VerificationStatus::NotVerified:
      return "not verified";
    case VerificationStatus::NothingToVerify:
      return "nothing to verify";
    case VerificationStatus::BitExact:
      return "bit-exact";
    case VerificationStatus::WithinTolerance:
      return "within tolerance";
    case VerificationStatus::Nondeterministic:
      return "nondeterministic";
    case VerificationStatus::Differs:
      return "differs";
  }
  return "not verified";
}

bool Verification::acceptable() const {
  if (status == VerificationStatus::Differs) return false;
  for (const auto& b : buffers) {
    if (b.status == VerificationStatus::Differs) return false;
    if (b.status == VerificationStatus::Nondeterministic && !b.allowed) return false;
  }
  return true;
}

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
