#include "replayer/core/plan/restore_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "format/hash128.h"

namespace msprof::replay {

std::uint64_t RestorePlan::bytes(RestoreSource source) const {
  std::uint64_t total = 0;
  for (const auto& b : buffers) {
    if (b.source == source) total += b.state.blob.size;
  }
  return total;
}

std::uint64_t RestorePlan::total_bytes() const {
  std::uint64_t total = 0;
  for (const auto& b : buffers) total += b.state.blob.size;
  return total;
}

bool is_zero_blob(const trace::TraceReader& reader, const trace::BlobRef& blob) {
  // A chunk is named by the hash of its content, so a zero chunk of a given
  // size has one name; a trace has chunks of one or two sizes.
  static thread_local std::map<std::uint64_t, trace::Hash128> zero_hashes;
  for (const auto& chunk : reader.manifest(blob).chunks) {
    auto it = zero_hashes.find(chunk.size);
    if (it == zero_hashes.end()) {
      const std::vector<std::byte> zeros(chunk.size);
      it = zero_hashes.emplace(chunk.size, trace::hash128(zeros)).first;
    }
    if (it->second != chunk.hash) return false;
  }
  return true;
}

namespace {

// Reading a chunk stored as it is costs a read from the page cache and a
// hash; one stored compressed costs its decompression on top, which is
// several times slower. A copy saves most where most chunks are compressed.
double compressed_share(const trace::TraceReader& reader, const trace::BlobRef& blob) {
  std::set<trace::Hash128> seen;
  std::uint64_t distinct = 0, compressed = 0;
  for (const auto& chunk : reader.manifest(blob).chunks) {
    if (!seen.insert(chunk.hash).second) continue;  // read once, kept while it repeats
    distinct += chunk.size;
    if (reader.chunk_stored_bytes(chunk) < chunk.size) compressed += chunk.size;
  }
  return distinct == 0 ? 0.0 : static_cast<double>(compressed) / static_cast<double>(blob.size);
}

}  // namespace

RestorePlan plan_restores(const RangePlan& plan, const trace::TraceReader& reader,
                          RestorePolicy policy, std::uint64_t copy_budget) {
  RestorePlan out;
  struct Candidate {
    std::size_t index;
    double compressed;
  };
  std::vector<Candidate> candidates;
  const auto is_image = [&](trace::CaptureId id) {
    for (const auto* b : plan.buffers) {
      if (b->id == id) return b->is_image();
    }
    return false;
  };
  for (const auto& state : plan.written) {
    BufferRestore restore{state, RestoreSource::Copy};
    if (is_zero_blob(reader, state.blob)) {
      restore.source = RestoreSource::Zeros;
    } else if (is_image(state.buffer)) {
      // An image is written whole or by rows; the trace's chunks do not
      // fall on rows, so it is restored from a copy whatever the policy.
    } else if (policy == RestorePolicy::Trace) {
      restore.source = RestoreSource::Trace;
    } else if (policy == RestorePolicy::Auto) {
      restore.source = RestoreSource::Trace;
      candidates.push_back({out.buffers.size(), compressed_share(reader, state.blob)});
    }
    out.buffers.push_back(restore);
  }
  // Costliest per byte first; of equal cost, the smaller first, so that more
  // buffers get a copy.
  std::stable_sort(candidates.begin(), candidates.end(), [&](const auto& a, const auto& b) {
    if (a.compressed != b.compressed) return a.compressed > b.compressed;
    return out.buffers[a.index].state.blob.size < out.buffers[b.index].state.blob.size;
  });
  std::uint64_t held = 0;
  for (const auto& c : candidates) {
    const auto size = out.buffers[c.index].state.blob.size;
    if (held + size > copy_budget) continue;
    held += size;
    out.buffers[c.index].source = RestoreSource::Copy;
  }
  return out;
}

}  // namespace msprof::replay
