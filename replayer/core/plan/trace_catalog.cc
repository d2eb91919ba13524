#include "replayer/core/plan/trace_catalog.h"

#include <algorithm>
#include <string>

#include "replayer/core/replay_error.h"

namespace msprof::replay {

namespace {

template <typename T>
const T& find_object(const std::map<trace::CaptureId, T>& objects, trace::CaptureId id,
                     const char* kind) {
  const auto it = objects.find(id);
  if (it == objects.end()) {
    throw PlanError(std::string("the trace has no ") + kind + " with capture id " +
                    std::to_string(id) + "; the trace is incomplete, record it again");
  }
  return it->second;
}

}  // namespace

TraceCatalog::TraceCatalog(const trace::TraceReader& reader) : info_(reader.info()) {
  for (const auto& entry : reader.records()) {
    trace::Record record = reader.read_record(entry);
    if (auto* p = std::get_if<trace::Program>(&record)) {
      programs_.emplace(p->id, std::move(*p));
    } else if (auto* k = std::get_if<trace::Kernel>(&record)) {
      kernels_.emplace(k->id, std::move(*k));
    } else if (auto* b = std::get_if<trace::Buffer>(&record)) {
      buffers_.emplace(b->id, std::move(*b));
    } else if (auto* q = std::get_if<trace::Queue>(&record)) {
      queues_.emplace(q->id, std::move(*q));
    } else if (auto* s = std::get_if<trace::Sampler>(&record)) {
      samplers_.emplace(s->id, std::move(*s));
    } else if (auto* r = std::get_if<trace::Range>(&record)) {
      ranges_.push_back(std::move(*r));
    }
  }
  std::stable_sort(ranges_.begin(), ranges_.end(),
                   [](const trace::Range& a, const trace::Range& b) { return a.order < b.order; });
}

const trace::Program& TraceCatalog::program(trace::CaptureId id) const {
  return find_object(programs_, id, "program");
}
const trace::Kernel& TraceCatalog::kernel(trace::CaptureId id) const {
  return find_object(kernels_, id, "kernel");
}
const trace::Buffer& TraceCatalog::buffer(trace::CaptureId id) const {
  return find_object(buffers_, id, "buffer");
}
const trace::Queue& TraceCatalog::queue(trace::CaptureId id) const {
  return find_object(queues_, id, "queue");
}
const trace::Sampler& TraceCatalog::sampler(trace::CaptureId id) const {
  return find_object(samplers_, id, "sampler");
}

}  // namespace msprof::replay
