#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "format/trace_writer.h"
#include "recorder/core/annotation_sink.h"
#include "recorder/core/capture_backend.h"
#include "recorder/core/range_capture.h"
#include "recorder/core/range_tracker.h"
#include "recorder/core/recorder_config.h"
#include "recorder/core/snapshot_pipeline.h"

namespace msprof::record {

// The recording of one process: range rules, the range being captured, the
// trace being written. The device layer reports commands into it; mstx and
// NVTX report ranges into it. One per process, alive until exit.
class CaptureSession final : public AnnotationSink {
 public:
  // The process's session, or nullptr when it is not under msprof-record
  // (or the trace could not be created, which is reported once).
  static CaptureSession* get() noexcept;

  void set_backend(CaptureBackend* backend);
  // Runs before every range start, without the session's lock: the device
  // layer makes sure it will see the range's calls (it may call into the
  // device API, which calls back into the layer).
  void set_before_range(std::function<void()> hook);
  // Why device work of a range may have gone unseen (calls that bypass the
  // layer), or empty; asked, lock held, at the end of a captured range that
  // holds no command.
  void set_unseen_work(std::function<std::string()> why);
  std::mutex& mutex() { return mutex_; }
  // Cheap check on every intercepted call.
  bool capturing() const { return capturing_.load(std::memory_order_acquire); }
  // The range being captured; lock held; nullptr when none.
  RangeCapture* current() { return current_.get(); }

  trace::CaptureId new_id() { return next_id_.fetch_add(1, std::memory_order_relaxed); }
  std::vector<std::byte> snapshot_buffer(std::size_t size) { return pipeline_->buffer(size); }
  SnapshotPipeline::BlobSlot snapshot(std::vector<std::byte> bytes);
  SnapshotPipeline::BlobSlot snapshot_copy(std::span<const std::byte> bytes) {
    return pipeline_->snapshot_copy(bytes);
  }
  SnapshotPipeline::BlobSlot snapshot_in_place(std::span<const std::byte> bytes) {
    return pipeline_->snapshot_in_place(bytes);
  }
  SnapshotPipeline::BlobSlot snapshot(std::vector<std::byte> bytes, std::function<void()> arrived) {
    return pipeline_->snapshot(std::move(bytes), std::move(arrived));
  }
  // Lock held: the range being captured used a call that cannot be replayed.
  void not_replayable(std::string_view call);
  // Lock held: whether an object's record is already in the trace or queued.
  bool object_known(trace::CaptureId id) const { return written_objects_.contains(id); }
  void warn(const std::string& message);
  void add_capture_time(std::uint64_t ns) { capture_ns_.fetch_add(ns, std::memory_order_relaxed); }
  const RecorderConfig& config() const { return config_; }
  // Lock held: the backend created a buffer a range could snapshot (a root
  // buffer), of `size` bytes; see SnapshotPipeline::buffer_created.
  void buffer_created_locked(std::uint64_t size);

  std::uint64_t range_start(std::string_view domain, std::string_view message,
                            std::uint64_t stream) noexcept override;
  void range_end(std::string_view domain, std::uint64_t id) noexcept override;
  void mark(std::string_view domain, std::string_view message,
            std::uint64_t stream) noexcept override;

  // Writes what is pending and closes the trace (program exit, or --kill).
  void shutdown() noexcept;

 private:
  explicit CaptureSession(RecorderConfig config);
  void write_trace_info_locked();
  // The sizes of the snapshots a range could take now; lock held.
  std::vector<std::uint64_t> snapshot_sizes_locked();
  void complete_range_locked(std::unique_ptr<RangeCapture> capture);
  // Done once everything handed to the pipeline so far, the range just
  // completed included, is in the file (written, not synced): range_end
  // waits for it, so a range whose end returned survives a kill.
  std::future<void> range_written_locked();
  // How long range_end waits at most: a command gated on the program in a
  // way the backend cannot see (an earlier command of an in-order queue
  // waiting on a user event) must not hang the program for good.
  static constexpr std::chrono::seconds kRangeWriteLimit{30};
  void write_objects_locked(const RangeCapture& capture);
  void notify_launcher(const std::string& line);
  // Tells the launcher how many ranges the program finished, so that it
  // can tell a trace that lost some (a full disk) from one that kept all.
  void notify_finished_locked();
  // A failure to write the trace: the launcher's to report, with what it
  // finds in the file; printed here only when there is no launcher.
  void report_write_failure(const std::string& message);

  RecorderConfig config_;
  std::unique_ptr<trace::TraceWriter> writer_;
  std::unique_ptr<SnapshotPipeline> pipeline_;
  std::mutex mutex_;
  std::atomic<bool> capturing_{false};
  std::atomic<trace::CaptureId> next_id_{1};
  std::atomic<std::uint64_t> capture_ns_{0};
  RangeTracker tracker_;
  CaptureBackend* backend_ = nullptr;
  std::function<void()> before_range_;
  std::function<std::string()> unseen_work_;
  std::unique_ptr<RangeCapture> current_;
  std::uint64_t current_id_ = 0;
  std::set<trace::CaptureId> written_objects_;
  std::size_t devices_written_ = 0;
  bool info_written_ = false;
  bool info_has_backend_ = false;
  bool closed_ = false;
  std::size_t ranges_finished_ = 0;  // captured ranges whose end the program reached
};

}  // namespace msprof::record
