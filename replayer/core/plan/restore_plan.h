#pragma once

#include <cstdint>
#include <vector>

#include "format/trace_reader.h"
#include "replayer/core/plan/range_plan.h"
#include "replayer/core/replay_options.h"

namespace msprof::replay {

enum class RestoreSource {
  Zeros,  // its initial state is all zeros: a fill, nothing held
  Copy,   // a pristine copy on the device
  Trace,  // its chunks read (and decompressed) from the trace each pass
};

struct BufferRestore {
  trace::BufferState state;
  RestoreSource source = RestoreSource::Copy;
};

struct RestorePlan {
  std::vector<BufferRestore> buffers;
  std::uint64_t bytes(RestoreSource source) const;
  std::uint64_t total_bytes() const;
};

// Whether every chunk of the blob is zeros, told from the chunks' hashes
// alone: nothing is read or decompressed.
bool is_zero_blob(const trace::TraceReader& reader, const trace::BlobRef& blob);

// copy_budget: the bytes Auto may hold in copies.
RestorePlan plan_restores(const RangePlan& plan, const trace::TraceReader& reader,
                          RestorePolicy policy, std::uint64_t copy_budget);

}  // namespace msprof::replay
