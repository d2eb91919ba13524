#pragma once

#include <vector>

#include "format/trace_range.h"
#include "replayer/core/plan/trace_catalog.h"

namespace msprof::replay {

// Everything a device backend needs to set one range up, resolved from the
// catalog: the objects its commands use and which buffers it writes.
struct RangePlan {
  const trace::Range* range = nullptr;
  std::vector<const trace::Program*> programs;
  std::vector<const trace::Kernel*> kernels;
  std::vector<const trace::Buffer*> buffers;  // root buffers before sub-buffers
  std::vector<const trace::Queue*> queues;
  std::vector<const trace::Sampler*> samplers;
  // Initial states of the buffers the range writes (initial and final hash
  // differ, or no final state was recorded): these, and only these, are
  // restored before every pass.
  std::vector<trace::BufferState> written;
  bool has_final_state = false;
  // Build every program from its source or IL even where the recorded
  // binary fits the device (--rebuild): the portable path, on one machine.
  bool rebuild_programs = false;
};

// PlanError when a command names an object the trace does not hold.
RangePlan plan_range(const trace::Range& range, const TraceCatalog& catalog);

}  // namespace msprof::replay
