#include "replayer/core/verify/verification.h"

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

}  // namespace msprof::replay
