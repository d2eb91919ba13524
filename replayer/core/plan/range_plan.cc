#include "replayer/core/plan/range_plan.h"

#include <set>
#include <string>

#include "replayer/core/replay_error.h"

namespace msprof::replay {

namespace {

class ObjectCollector {
 public:
  explicit ObjectCollector(const TraceCatalog& catalog) : catalog_(catalog) {}

  void buffer(trace::CaptureId id) {
    if (id == 0 || !buffers_.insert(id).second) return;
    const auto& b = catalog_.buffer(id);
    if (b.parent != 0) {
      // Two levels at most: a sub-buffer or image of a buffer that is a
      // sub-buffer or lies over an SVM allocation; parents have the smaller
      // ids, so they are made first.
      const auto& parent = catalog_.buffer(b.parent);
      const bool two_levels_allowed =
          b.is_image() || (parent.parent != 0 && catalog_.buffer(parent.parent).is_pointer());
      if (parent.parent != 0 &&
          (!two_levels_allowed || catalog_.buffer(parent.parent).parent != 0)) {
        throw PlanError("buffer " + std::to_string(id) +
                        " is a sub-buffer of a sub-buffer; the trace is damaged");
      }
      buffer(b.parent);
    }
  }
  void kernel(trace::CaptureId id) {
    if (!kernels_.insert(id).second) return;
    programs_.insert(catalog_.kernel(id).program);
  }
  void queue(trace::CaptureId id) {
    if (id != 0) queues_.insert(id);
  }
  void sampler(trace::CaptureId id) {
    if (id != 0) samplers_.insert(id);
  }

  void fill(RangePlan& plan) const {
    for (auto id : programs_) plan.programs.push_back(&catalog_.program(id));
    for (auto id : kernels_) plan.kernels.push_back(&catalog_.kernel(id));
    for (int pass = 0; pass < 2; ++pass) {
      for (auto id : buffers_) {
        const auto& b = catalog_.buffer(id);
        if ((b.parent == 0) == (pass == 0)) plan.buffers.push_back(&b);
      }
    }
    for (auto id : queues_) plan.queues.push_back(&catalog_.queue(id));
    for (auto id : samplers_) plan.samplers.push_back(&catalog_.sampler(id));
  }

 private:
  const TraceCatalog& catalog_;
  std::set<trace::CaptureId> programs_, kernels_, buffers_, queues_, samplers_;
};

}  // namespace

RangePlan plan_range(const trace::Range& range, const TraceCatalog& catalog) {
  RangePlan plan;
  plan.range = &range;
  ObjectCollector objects(catalog);
  for (const auto& command : range.commands) {
    objects.queue(command.queue);
    std::visit(
        [&](const auto& body) {
          using T = std::decay_t<decltype(body)>;
          if constexpr (std::is_same_v<T, trace::KernelLaunch>) {
            objects.kernel(body.kernel);
            for (const auto& arg : body.args) {
              if (arg.names_memory()) objects.buffer(arg.object);
              if (arg.kind == trace::ArgKind::Sampler) objects.sampler(arg.object);
            }
            for (const auto& arg : body.indirect) {
              if (arg.names_memory()) objects.buffer(arg.object);
            }
          } else if constexpr (std::is_same_v<T, trace::BufferCopy>) {
            objects.buffer(body.src);
            objects.buffer(body.dst);
          } else if constexpr (requires { body.buffer; }) {
            objects.buffer(body.buffer);
          }
        },
        command.body);
  }
  for (const auto& state : range.initial_state) objects.buffer(state.buffer);
  for (const auto& state : range.final_state) objects.buffer(state.buffer);
  objects.fill(plan);

  plan.has_final_state = !range.final_state.empty();
  for (const auto& initial : range.initial_state) {
    bool unchanged = false;
    for (const auto& final_state : range.final_state) {
      if (final_state.buffer == initial.buffer) unchanged = final_state.blob == initial.blob;
    }
    if (!unchanged) plan.written.push_back(initial);
  }
  return plan;
}

}  // namespace msprof::replay
