#pragma once

#include <map>
#include <string>
#include <vector>

#include "format/trace_reader.h"
#include "format/trace_record.h"

namespace msprof::analyze {

// Every object record of a trace by capture id, and the ranges in file order:
// the metadata every subcommand but `info` needs. Blobs are not read.
class ObjectTable {
 public:
  explicit ObjectTable(const trace::TraceReader& reader);

  const trace::TraceInfo& info() const { return info_; }
  const std::vector<trace::Range>& ranges() const { return ranges_; }
  const std::map<trace::CaptureId, trace::Context>& contexts() const { return contexts_; }
  const std::map<trace::CaptureId, trace::Program>& programs() const { return programs_; }
  const std::map<trace::CaptureId, trace::Kernel>& kernels() const { return kernels_; }
  const std::map<trace::CaptureId, trace::Buffer>& buffers() const { return buffers_; }
  const std::map<trace::CaptureId, trace::Queue>& queues() const { return queues_; }
  const std::map<trace::CaptureId, trace::Sampler>& samplers() const { return samplers_; }

  const trace::Kernel* kernel(trace::CaptureId id) const;
  const trace::Program* program(trace::CaptureId id) const;
  const trace::Buffer* buffer(trace::CaptureId id) const;
  // The kernel's name, or "kernel#<id>" when the trace lacks its record.
  std::string kernel_name(trace::CaptureId id) const;

  // The range named `spec`; failing that, the range whose capture id is
  // `spec`. AnalyzeError names the ranges there are when nothing matches.
  const trace::Range& find_range(const std::string& spec) const;

 private:
  trace::TraceInfo info_;
  std::vector<trace::Range> ranges_;
  std::map<trace::CaptureId, trace::Context> contexts_;
  std::map<trace::CaptureId, trace::Program> programs_;
  std::map<trace::CaptureId, trace::Kernel> kernels_;
  std::map<trace::CaptureId, trace::Buffer> buffers_;
  std::map<trace::CaptureId, trace::Queue> queues_;
  std::map<trace::CaptureId, trace::Sampler> samplers_;
};

}  // namespace msprof::analyze
