#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "format/hash128.h"
#include "format/trace_reader.h"
#include "replayer/core/device/replay_device.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/replay_options.h"
#include "replayer/core/verify/element_type.h"
#include "replayer/core/verify/verification.h"

namespace msprof::replay {

// The verdict on one range: every buffer of its recorded final state
// compared, piece by piece, with what the replay left on the device, in the
// element type the kernels use it as, and the replayed passes compared with
// each other (by content hash, so no pass is held) to tell a kernel that
// gives different results run to run from a replay that went wrong.
class RangeVerifier {
 public:
  // restored: the buffers put back before every pass; only they can be
  // called nondeterministic (a buffer the recording never changed that a
  // replay changes is a replay fault, whatever later passes do).
  // loaded: asked for argument information the trace lacks.
  RangeVerifier(const trace::Range& range, const TraceCatalog& catalog,
                const trace::TraceReader& reader, const ReplayOptions& options,
                const std::set<trace::CaptureId>& restored, LoadedRange& loaded);

  // False when the verdict is already known (not verified, nothing to verify).
  bool active() const { return active_; }
  // After measured pass `pass`: compares with the recording and with the
  // first checked pass.
  void check_pass(LoadedRange& loaded, unsigned pass);
  // Buffers that differ from the recording and have not yet been seen to
  // change from pass to pass: extra passes may show them nondeterministic.
  std::vector<trace::CaptureId> suspects() const;
  // After an extra, unmeasured pass: compares the suspects with the first
  // checked pass only.
  void check_repeat(LoadedRange& loaded);
  Verification verdict() const;

 private:
  struct BufferState {
    const trace::BufferState* recorded = nullptr;
    std::uint64_t size = 0;  // the buffer's, as the trace gives it
    BufferUse use;
    BufferComparison comparison;  // the first that differed, else the last
    bool checked = false;
    trace::Hash128 first_hash;
    bool nondeterministic = false;
  };

  trace::Hash128 compare(LoadedRange& loaded, BufferState& state, BufferComparison& out);
  trace::Hash128 hash(LoadedRange& loaded, const BufferState& state);
  // Reads the buffer from `offset` to its end into `hasher`.
  void hash_from(LoadedRange& loaded, const BufferState& state, std::uint64_t offset,
                 trace::Hash128Stream& hasher);
  bool allowed(trace::CaptureId id, const BufferState& state) const;

  const trace::TraceReader& reader_;
  const ReplayOptions& options_;
  std::set<trace::CaptureId> restored_;
  bool active_ = false;
  Verification base_;  // status and reason when inactive
  std::map<trace::CaptureId, BufferState> buffers_;
  std::vector<std::byte> scratch_;
  unsigned first_differing_pass_ = 0;
  bool any_differed_ = false;
  unsigned passes_ = 0;
};

}  // namespace msprof::replay
