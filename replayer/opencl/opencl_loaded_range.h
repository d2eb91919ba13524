#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "replayer/core/device/replay_device.h"
#include "replayer/core/host/host_line_flush.h"
#include "replayer/opencl/cl_handle.h"
#include "replayer/opencl/range_memory.h"
#include "replayer/opencl/variant_builder.h"

namespace msprof::replay::opencl {

class OpenClDevice;

// One range set up on an OpenCL device: queues, programs, kernels,
// samplers, its memory objects (RangeMemory) with the initial state
// uploaded and what restores those the range writes, and the host side of
// its writes and reads. Each command of the range is one call on the
// object it names.
class OpenClLoadedRange : public LoadedRange {
 public:
  OpenClLoadedRange(OpenClDevice& device, const RangePlan& plan, const trace::TraceInfo& info,
                    const trace::TraceReader& reader, const CacheClearRequest& cache,
                    const RestorePlan& restores);
  ~OpenClLoadedRange() override;

  std::string program_origin() const override;
  std::uint64_t restored_bytes() const override { return memory_.restored_bytes(); }
  std::vector<std::string> notes() const override { return notes_; }
  void restore() override;
  void clear_cache() override;
  void begin_pass() override;
  void execute(std::span<const trace::Command> commands) override;
  std::vector<trace::CommandTiming> timings() override;
  void read_buffer(trace::CaptureId buffer, std::uint64_t offset,
                   std::span<std::byte> out) override;
  std::vector<trace::KernelArgInfo> learned_arg_info(trace::CaptureId kernel) override;
  void prepare_variant(std::size_t index, const Variant& variant) override;
  void select_variant(std::optional<std::size_t> index) override;
  const RestorePlan* restores_made() const override {
    return memory_.restores_changed() ? &memory_.restores() : nullptr;
  }

 private:
  void create_queues(const RangePlan& plan);
  void create_programs(const RangePlan& plan, const trace::TraceInfo& info,
                       const trace::TraceReader& reader);
  void load_host_data(const trace::Range& range, const trace::TraceReader& reader);

  cl_command_queue queue(trace::CaptureId id) const;
  std::vector<cl_event> wait_list(const trace::Command& command) const;
  cl_event enqueue(const trace::Command& command);
  cl_event enqueue_kernel(cl_command_queue q, const trace::KernelLaunch& launch,
                          const std::vector<cl_event>& waits);
  void host_wait(const trace::Command& command);
  void finish_all();

  OpenClDevice& device_;
  const trace::Range& range_;
  const CacheClearRequest cache_;
  // Every byte the range touches, evicted before each pass, when the
  // device works in host memory (else a sweep clears the cache).
  const bool evicts_lines_;
  HostLineFlush line_flush_;
  std::map<trace::CaptureId, ClQueue> queues_;
  std::map<trace::CaptureId, ClProgram> programs_;
  std::map<trace::CaptureId, std::string> origins_;
  std::map<trace::CaptureId, ClKernel> kernels_;
  // For learned_arg_info: the trace's programs and kernels (the catalog
  // outlives the range), and the twins built with argument information.
  const trace::TraceReader& reader_;
  std::map<trace::CaptureId, const trace::Program*> trace_programs_;
  std::map<trace::CaptureId, const trace::Kernel*> trace_kernels_;
  std::map<trace::CaptureId, ClProgram> arg_info_twins_;
  std::map<trace::CaptureId, ClSampler> samplers_;
  // Every memory object of the range, whatever its kind, and how those the
  // range writes are restored.
  RangeMemory memory_;
  std::map<std::uint64_t, std::vector<std::byte>> host_data_;   // by seq: writes, reads
  std::vector<std::pair<std::uint64_t, ClEvent>> pass_events_;  // by seq
  std::map<trace::CaptureId, cl_event> recorded_events_;        // capture id -> this pass
  std::set<std::uint64_t> kernel_seqs_;
  std::map<std::size_t, VariantCode> variants_;
  const VariantCode* active_ = nullptr;  // what execute() runs; null: the recorded range
  std::vector<std::string> notes_;
};

}  // namespace msprof::replay::opencl
