#pragma once

#include <map>
#include <vector>

#include "format/trace_reader.h"
#include "format/trace_record.h"

namespace msprof::replay {

// Every object record of a trace by capture id, and the ranges in program
// order. Read once; the ranges' commands are the bulk of it, the blobs stay
// in the file until a replay asks for them.
class TraceCatalog {
 public:
  explicit TraceCatalog(const trace::TraceReader& reader);

  const trace::TraceInfo& info() const { return info_; }
  const std::vector<trace::Range>& ranges() const { return ranges_; }

  // PlanError naming the missing object when the trace lacks it.
  const trace::Program& program(trace::CaptureId id) const;
  const trace::Kernel& kernel(trace::CaptureId id) const;
  const trace::Buffer& buffer(trace::CaptureId id) const;
  const trace::Queue& queue(trace::CaptureId id) const;
  const trace::Sampler& sampler(trace::CaptureId id) const;
  bool has_buffer(trace::CaptureId id) const { return buffers_.count(id) != 0; }

 private:
  trace::TraceInfo info_;
  std::map<trace::CaptureId, trace::Program> programs_;
  std::map<trace::CaptureId, trace::Kernel> kernels_;
  std::map<trace::CaptureId, trace::Buffer> buffers_;
  std::map<trace::CaptureId, trace::Queue> queues_;
  std::map<trace::CaptureId, trace::Sampler> samplers_;
  std::vector<trace::Range> ranges_;
};

}  // namespace msprof::replay
