#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "replayer/core/verify/state_comparison.h"

namespace msprof::replay {

// The verdict on a range, and on each buffer of its final state.
//   BitExact          every checked pass equals the recording
//   WithinTolerance   differs, but only within --tolerance
//   Differs           a replay fault, or a kernel that computes otherwise
//   Nondeterministic  replayed passes disagree with each other: the
//                     program's own kernel gives different results run to run
//   NothingToVerify   the range writes no buffer (ranges only)
//   NotVerified       --verify off, or the trace has no final state (ranges only)
enum class VerificationStatus {
  NotVerified,
  NothingToVerify,
  BitExact,
  WithinTolerance,
  Nondeterministic,
  Differs
};
std::string_view verification_status_name(VerificationStatus status);

struct BufferVerification {
  BufferComparison comparison;  // with the recording, of the pass `Verification::pass`
  VerificationStatus status = VerificationStatus::BitExact;
  std::set<std::string> arg_names;  // what the range's kernels call it
  bool allowed = false;             // nondeterministic, and --allow-nondeterministic names it
};

struct Verification {
  VerificationStatus status = VerificationStatus::NotVerified;
  std::string reason;            // why not verified, or why nothing to verify
  unsigned pass = 0;             // measured pass the comparisons describe (the first that differed)
  unsigned passes_compared = 0;  // replayed passes whose outputs were compared with each other
  std::vector<BufferVerification> buffers;
  // Whether this verdict lets msprof-replay exit 0.
  bool acceptable() const;
};

}  // namespace msprof::replay
