#include "replayer/core/verify/range_verifier.h"

#include <algorithm>
#include <string>

#include "format/trace_error.h"
#include "replayer/core/replay_error.h"

namespace msprof::replay {

namespace {

// Pieces a buffer is read back in when no trace chunk sets the size.
constexpr std::uint64_t kReadPiece = 4ull << 20;

}  // namespace

RangeVerifier::RangeVerifier(const trace::Range& range, const TraceCatalog& catalog,
                             const trace::TraceReader& reader, const ReplayOptions& options,
                             const std::set<trace::CaptureId>& restored, LoadedRange& loaded)
    : reader_(reader), options_(options), restored_(restored) {
  if (options.verify == VerifyMode::Off) {
    base_.status = VerificationStatus::NotVerified;
    base_.reason = "--verify off";
    return;
  }
  if (!catalog.info().options.final_state) {
    base_.status = VerificationStatus::NotVerified;
    base_.reason = "the trace has no final state (recorded with --final-state off)";
    return;
  }
  if (range.final_state.empty()) {
    base_.status = VerificationStatus::NothingToVerify;
    base_.reason = "the range writes no buffer";
    return;
  }
  std::map<trace::CaptureId, std::vector<trace::KernelArgInfo>> learned;
  for (const auto& command : range.commands) {
    const auto* launch = std::get_if<trace::KernelLaunch>(&command.body);
    if (launch == nullptr || !catalog.kernel(launch->kernel).arg_info.empty() ||
        learned.count(launch->kernel) != 0)
      continue;
    learned.emplace(launch->kernel, loaded.learned_arg_info(launch->kernel));
  }
  const auto uses = buffer_uses(range, catalog, learned);
  for (const auto& state : range.final_state) {
    BufferState b;
    b.recorded = &state;
    b.size = catalog.has_buffer(state.buffer) ? catalog.buffer(state.buffer).size : state.blob.size;
    const auto it = uses.find(state.buffer);
    if (it != uses.end()) b.use = it->second;
    buffers_.emplace(state.buffer, std::move(b));
  }
  active_ = true;
}

trace::Hash128 RangeVerifier::compare(LoadedRange& loaded, BufferState& state,
                                      BufferComparison& out) {
  const auto id = state.recorded->buffer;
  BufferComparator comparator(id, state.recorded->blob.size, state.use.element, options_.tolerance);
  trace::Hash128Stream hasher;
  std::uint64_t offset = 0;
  try {
    reader_.stream_blob(state.recorded->blob, [&](std::span<const std::byte> expected) {
      const std::uint64_t n =
          std::min<std::uint64_t>(expected.size(), state.size - std::min(offset, state.size));
      scratch_.resize(std::max<std::size_t>(scratch_.size(), n));
      const std::span<std::byte> actual(scratch_.data(), n);
      if (n != 0) loaded.read_buffer(id, offset, actual);
      hasher.update(actual);
      comparator.feed(expected.first(n), actual);
      offset += n;
    });
  } catch (const trace::TraceError& e) {
    throw PlanError("final state of buffer " + std::to_string(id) + " is unreadable: " + e.what() +
                    "; replay with --verify off");
  }
  // What the recording does not cover is still the buffer's content.
  hash_from(loaded, state, offset, hasher);
  out = comparator.finish(state.size);
  return hasher.digest();
}

void RangeVerifier::hash_from(LoadedRange& loaded, const BufferState& state, std::uint64_t offset,
                              trace::Hash128Stream& hasher) {
  for (; offset < state.size; offset += kReadPiece) {
    const auto n = std::min(kReadPiece, state.size - offset);
    scratch_.resize(std::max<std::size_t>(scratch_.size(), n));
    const std::span<std::byte> actual(scratch_.data(), n);
    loaded.read_buffer(state.recorded->buffer, offset, actual);
    hasher.update(actual);
  }
}

trace::Hash128 RangeVerifier::hash(LoadedRange& loaded, const BufferState& state) {
  trace::Hash128Stream hasher;
  hash_from(loaded, state, 0, hasher);
  return hasher.digest();
}

void RangeVerifier::check_pass(LoadedRange& loaded, unsigned pass) {
  if (!active_) return;
  bool differed = false;
  for (auto& [id, state] : buffers_) {
    BufferComparison comparison;
    const auto digest = compare(loaded, state, comparison);
    if (!state.checked) {
      state.first_hash = digest;
    } else if (digest != state.first_hash && restored_.count(id) != 0) {
      state.nondeterministic = true;
    }
    // Keep the first comparison that differed: later ones add nothing the
    // user can act on, and the first names the pass to look at.
    if (!state.checked || state.comparison.equal) state.comparison = comparison;
    state.checked = true;
    differed = differed || !comparison.equal;
  }
  if (differed && !any_differed_) {
    any_differed_ = true;
    first_differing_pass_ = pass;
  }
  ++passes_;
}

std::vector<trace::CaptureId> RangeVerifier::suspects() const {
  std::vector<trace::CaptureId> out;
  for (const auto& [id, state] : buffers_) {
    if (state.checked && !state.comparison.equal && !state.nondeterministic &&
        restored_.count(id) != 0)
      out.push_back(id);
  }
  return out;
}

void RangeVerifier::check_repeat(LoadedRange& loaded) {
  for (auto id : suspects()) {
    auto& state = buffers_.at(id);
    if (hash(loaded, state) != state.first_hash) state.nondeterministic = true;
  }
  ++passes_;
}

bool RangeVerifier::allowed(trace::CaptureId id, const BufferState& state) const {
  if (options_.allow_all_nondeterministic) return true;
  for (const auto& name : options_.allow_nondeterministic) {
    if (name == std::to_string(id) || state.use.arg_names.count(name) != 0) return true;
  }
  return false;
}

Verification RangeVerifier::verdict() const {
  if (!active_) return base_;
  Verification v;
  v.pass = any_differed_ ? first_differing_pass_ : 0;
  v.passes_compared = passes_;
  auto worst = VerificationStatus::BitExact;
  for (const auto& [id, state] : buffers_) {
    BufferVerification b;
    b.comparison = state.comparison;
    b.arg_names = state.use.arg_names;
    if (state.nondeterministic) {
      b.status = VerificationStatus::Nondeterministic;
      b.allowed = allowed(id, state);
    } else if (state.comparison.outside != 0) {
      b.status = VerificationStatus::Differs;
    } else if (!state.comparison.equal) {
      b.status = VerificationStatus::WithinTolerance;
    }
    worst = std::max(worst, b.status);
    v.buffers.push_back(std::move(b));
  }
  v.status = worst;
  return v;
}

}  // namespace msprof::replay
