#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "replayer/core/address_translation.h"
#include "replayer/core/host_line_flush.h"
#include "replayer/core/replay_device.h"
#include "replayer/core/trace_restorer.h"
#include "replayer/opencl/cl_handle.h"
#include "replayer/opencl/variant_builder.h"

namespace msprof::replay::opencl {

class OpenClDevice;

// One range set up on an OpenCL device: queues, programs, kernels, buffers
// with their sub-buffers, the initial state uploaded, and what restores the
// buffers the range writes (a RestorePlan: fills, copies, the trace).
class OpenClLoadedRange : public LoadedRange {
 public:
  OpenClLoadedRange(OpenClDevice& device, const RangePlan& plan, const trace::TraceInfo& info,
                    const trace::TraceReader& reader, const CacheClearRequest& cache,
                    const RestorePlan& restores);
  ~OpenClLoadedRange() override;

  std::string program_origin() const override;
  std::uint64_t restored_bytes() const override { return restored_bytes_; }
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
    return restores_changed_ ? &restores_ : nullptr;
  }

 private:
  void create_queues(const RangePlan& plan);
  void create_programs(const RangePlan& plan, const trace::TraceInfo& info,
                       const trace::TraceReader& reader);
  void create_buffers(const RangePlan& plan);
  void upload_initial_state(const RangePlan& plan, const trace::TraceReader& reader);
  void prepare_restores();
  void load_host_data(const trace::Range& range, const trace::TraceReader& reader);
  // A buffer for the range: in host memory of ours where the range evicts
  // its own lines, so they can be evicted (host_bytes, if given, then says
  // where); the driver's otherwise.
  ClMem create_buffer(cl_mem_flags flags, std::uint64_t size, cl_int& err,
                      std::span<const std::byte>* host_bytes = nullptr);

  // An image of the range, zeros, made as recorded (over its buffer where
  // it was made over one).
  ClMem create_image(const trace::Buffer& image, cl_int& err);
  const trace::ImageDesc* image(trace::CaptureId id) const;
  // Writes or reads an image whole, packed.
  void write_image(cl_command_queue q, trace::CaptureId id, std::span<const std::byte> bytes);
  void read_image(trace::CaptureId id, std::vector<std::byte>& out);
  // An image command: the rect's x in bytes, back to pixels.
  cl_event enqueue_image(cl_command_queue q, const trace::Command& command,
                         const std::vector<cl_event>& waits);
  // An SVM allocation of the range; what a Pointer allocation of the trace
  // replays as. Fails with the device's missing capability.
  void create_svm(const trace::Buffer& buffer);
  // The replayed address of a Pointer allocation, or null for a buffer.
  std::byte* svm(trace::CaptureId id) const;
  // Bytes bound for a Pointer allocation at `offset`, with the recorded
  // addresses they hold moved to the replayed allocations.
  void translate_in(trace::CaptureId id, std::span<std::byte> bytes, std::uint64_t offset);
  // Writes `bytes` at `offset` of a buffer or allocation, blocking.
  void write_memory(cl_command_queue q, trace::CaptureId id, std::uint64_t offset,
                    std::span<const std::byte> bytes);

  cl_mem mem(trace::CaptureId id) const;
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
  std::map<trace::CaptureId, const trace::Buffer*> trace_buffers_;  // the catalog's records
  std::map<trace::CaptureId, trace::ImageDesc> images_;
  std::map<trace::CaptureId, ClMem> pristine_images_;               // restore copies of images
  std::map<trace::CaptureId, std::vector<std::byte>> image_reads_;  // for read_buffer's pieces
  std::map<trace::CaptureId, ClSvm> svm_;                           // Pointer allocations
  std::map<trace::CaptureId, ClSvm> pristine_svm_;                  // their restore copies
  AddressTranslation addresses_;                                    // recorded -> replayed
  std::uint64_t translated_words_ = 0;                              // stored pointers moved at load
  // After the SVM allocations, so released before them: buffers may be made
  // over their memory.
  std::map<trace::CaptureId, ClMem> buffers_;
  std::map<trace::CaptureId, std::uint64_t> buffer_sizes_;
  // Root buffers in host memory of ours (evicts_lines_), where the device
  // works on them in place.
  std::map<trace::CaptureId, std::span<const std::byte>> host_bytes_;
  RestorePlan restores_;
  bool restores_changed_ = false;                               // a copy fell back to the trace
  std::vector<trace::CaptureId> zero_restored_;                 // written, restored by a zero fill
  std::map<trace::CaptureId, ClMem> pristine_;                  // restore copies on the device
  TraceRestorer trace_restorer_;                                // the others, from the trace
  std::map<std::uint64_t, std::vector<std::byte>> host_data_;   // by seq: writes, reads
  std::vector<std::pair<std::uint64_t, ClEvent>> pass_events_;  // by seq
  std::map<trace::CaptureId, cl_event> recorded_events_;        // capture id -> this pass
  std::set<std::uint64_t> kernel_seqs_;
  std::map<std::size_t, VariantCode> variants_;
  const VariantCode* active_ = nullptr;  // what execute() runs; null: the recorded range
  std::uint64_t restored_bytes_ = 0;
  std::vector<std::string> notes_;
};

}  // namespace msprof::replay::opencl
