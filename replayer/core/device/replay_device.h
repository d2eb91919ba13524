#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "format/trace_range.h"
#include "format/trace_reader.h"
#include "replayer/core/device_description.h"
#include "replayer/core/plan/range_plan.h"
#include "replayer/core/plan/restore_plan.h"
#include "replayer/core/replay_error.h"
#include "replayer/core/replay_options.h"
#include "replayer/core/workbench_variant.h"

namespace msprof::replay {

// How the cache is to be cleared between passes.
struct CacheClearRequest {
  // Bytes a sweep reads: several times the last-level cache; 0 when the
  // cache is not to be cleared.
  std::uint64_t scratch_bytes = 0;
  // --cache-size was given: a sweep of that size, even on a device whose
  // range buffers could be evicted line by line instead.
  bool sweep_asked = false;
  bool enabled() const { return scratch_bytes != 0; }
};

// One range set up on a device: its objects created and its initial state
// uploaded. A pass is restore(), clear_cache() where wanted, begin_pass(),
// one or more execute() calls, then timings().
class LoadedRange {
 public:
  virtual ~LoadedRange() = default;

  // How the programs were obtained: "binary", "source" or "il" (joined with
  // ',' when the range's programs differ).
  virtual std::string program_origin() const = 0;
  virtual std::uint64_t restored_bytes() const = 0;
  // Things worth telling the user (a fallback taken, a property dropped).
  virtual std::vector<std::string> notes() const = 0;

  // Puts the buffers the range writes back into their initial state.
  virtual void restore() = 0;
  // Evicts the range's data from the device caches; untimed.
  virtual void clear_cache() = 0;
  // Forgets the events of the previous pass.
  virtual void begin_pass() = 0;
  // Enqueues the commands in order on their queues, with their recorded
  // dependencies (also on commands of earlier execute() calls of this pass),
  // and waits until all of them completed.
  virtual void execute(std::span<const trace::Command> commands) = 0;
  // Device timestamps of the kernel launches of this pass, by seq.
  virtual std::vector<trace::CommandTiming> timings() = 0;
  // Argument information (names, type names) the driver gives for a kernel
  // of the range whose trace has none, learnt from the program's source or
  // IL built again with the driver's argument-information option; empty
  // when it cannot be had. Only verification asks, once per range.
  virtual std::vector<trace::KernelArgInfo> learned_arg_info(trace::CaptureId /*kernel*/) {
    return {};
  }
  // Reads out.size() bytes of the buffer from `offset`: verification reads
  // a buffer piece by piece, so it is never held whole twice.
  virtual void read_buffer(trace::CaptureId buffer, std::uint64_t offset,
                           std::span<std::byte> out) = 0;
  // Builds what a workbench variant changes (programs, kernels, launch
  // sizes), under `index`, outside any pass; VariantError when it cannot.
  virtual void prepare_variant(std::size_t /*index*/, const Variant& /*variant*/) {
    throw VariantError("this device cannot replay variants");
  }
  // What execute() runs from now on: a prepared variant, or (nullopt) the
  // recorded range.
  virtual void select_variant(std::optional<std::size_t> /*index*/) {}
  // The restores as made, where they differ from those asked for (a copy
  // the device had no memory for, restored from the trace instead).
  virtual const RestorePlan* restores_made() const { return nullptr; }
};

// A device backend (OpenCL today). Core code sees only this.
class ReplayDevice {
 public:
  virtual ~ReplayDevice() = default;
  virtual const DeviceDescription& description() const = 0;
  // cache: how clear_cache() is to clear the cache, if at all.
  // restores: how each written buffer is put back before a pass; a copy
  // that cannot be had on the device is read from the trace instead.
  virtual std::unique_ptr<LoadedRange> load(const RangePlan& plan, const trace::TraceInfo& info,
                                            const trace::TraceReader& reader,
                                            const CacheClearRequest& cache,
                                            const RestorePlan& restores) = 0;
  // Bytes of device memory clearing the cache the way `cache` asks takes
  // (a sweep's scratch; none where the range's own lines are evicted).
  virtual std::uint64_t cache_clear_bytes(const CacheClearRequest& cache) {
    return cache.scratch_bytes;
  }
  // Starts making what clearing the cache needs (a sweep's scratch), in the
  // background, so that it overlaps with loading the first range; its errors
  // surface from load(). Optional: load() makes it otherwise.
  virtual void prepare_cache_clear(const CacheClearRequest& /*cache*/) {}
  // How the cache was cleared, in words; empty when it never was.
  virtual std::string cache_clear_method() const { return ""; }
  // Where the device's worker threads ran, in words, for a device whose
  // kernels run on host threads, against what `asked` requested; empty for
  // others.
  virtual std::string thread_placement(ThreadControl /*asked*/) const { return ""; }
};

}  // namespace msprof::replay
