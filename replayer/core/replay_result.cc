#include "replayer/core/replay_result.h"

namespace msprof::replay {

std::string_view verification_status_name(VerificationStatus status) {
  switch (status) {
    case VerificationStatus::Off:
      return "off";
    case VerificationStatus::BitExact:
      return "bit-exact";
    case VerificationStatus::Differs:
      return "differs";
    case VerificationStatus::Unavailable:
      return "unavailable";
  }
  return "off";
}

std::string_view range_outcome_name(RangeOutcome outcome) {
  switch (outcome) {
    case RangeOutcome::Replayed:
      return "replayed";
    case RangeOutcome::Skipped:
      return "skipped";
    case RangeOutcome::Failed:
      return "failed";
  }
  return "skipped";
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
    if (r.verification.status == VerificationStatus::Differs) return true;
  }
  return false;
}

}  // namespace msprof::replay
