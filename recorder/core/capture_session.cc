#include "recorder/core/capture_session.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <future>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "printable_text/printable_text.h"
#include "recorder/core/capture_description.h"
#include "recorder/core/capture_timer.h"

namespace msprof::record {
namespace {

// The reference tool's advice: more kernels than this in one range.
constexpr std::size_t kKernelWarningLimit = 50;

std::uint64_t wall_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
}

// A range that is not being captured still gets an id; a session that is not
// recording hands these out.
class NullSink final : public AnnotationSink {
 public:
  std::uint64_t range_start(std::string_view, std::string_view, std::uint64_t) noexcept override {
    return next_.fetch_add(1, std::memory_order_relaxed);
  }
  void range_end(std::string_view, std::uint64_t) noexcept override {}
  void mark(std::string_view, std::string_view, std::uint64_t) noexcept override {}

 private:
  std::atomic<std::uint64_t> next_{1};
};

}  // namespace

AnnotationSink& annotation_sink() noexcept {
  if (CaptureSession* session = CaptureSession::get()) return *session;
  static NullSink null_sink;
  return null_sink;
}

CaptureSession* CaptureSession::get() noexcept {
  static CaptureSession* session = []() -> CaptureSession* {
    try {
      auto config = RecorderConfig::from_environment();
      if (!config) return nullptr;
      // Only the first process that gets here records (a program that
      // starts children under the launcher must not have them overwrite it).
      const int fd = ::open(config->output.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0) return nullptr;
      ::close(fd);
      auto* s = new CaptureSession(std::move(*config));
      std::atexit([] {
        if (CaptureSession* live = CaptureSession::get()) live->shutdown();
      });
      return s;
    } catch (const std::exception& e) {
      std::fprintf(stderr,
                   "msprof-record: error: cannot start recording: %s; nothing is recorded\n",
                   e.what());
      return nullptr;
    }
  }();
  return session;
}

CaptureSession::CaptureSession(RecorderConfig config)
    : config_(std::move(config)), tracker_(config_.include, config_.exclude) {
  trace::TraceWriter::Options options;
  options.compression_level = config_.compression_level;
  options.min_saving_percent = config_.min_saving;
  options.workers = config_.workers;
  writer_ = std::make_unique<trace::TraceWriter>(config_.output, options);
  pipeline_ = std::make_unique<SnapshotPipeline>(*writer_, config_.memory_bound,
                                                 !config_.quiet && ::isatty(2));
}

void CaptureSession::set_backend(CaptureBackend* backend) {
  std::lock_guard lock(mutex_);
  backend_ = backend;
}

void CaptureSession::warn(const std::string& message) {
  if (!config_.quiet) std::fprintf(stderr, "msprof-record: warning: %s\n", message.c_str());
}

SnapshotPipeline::BlobSlot CaptureSession::snapshot(std::vector<std::byte> bytes) {
  return pipeline_->snapshot(std::move(bytes));
}

void CaptureSession::not_replayable(std::string_view call) {
  if (!current_) return;
  auto& range = current_->range;
  if (range.status == trace::RangeStatus::NotReplayable) return;
  range.status = trace::RangeStatus::NotReplayable;
  range.status_reason = std::string(call);
  warn("range '" + printable(range.name) + "' uses " + std::string(call) +
       ", which cannot be replayed yet; it is recorded as not replayable");
}

void CaptureSession::set_before_range(std::function<void()> hook) {
  std::lock_guard lock(mutex_);
  before_range_ = std::move(hook);
}

void CaptureSession::set_unseen_work(std::function<std::string()> why) {
  std::lock_guard lock(mutex_);
  unseen_work_ = std::move(why);
}

std::uint64_t CaptureSession::range_start(std::string_view domain, std::string_view message,
                                          std::uint64_t stream) noexcept {
  try {
    std::function<void()> before;
    {
      std::lock_guard lock(mutex_);
      before = before_range_;
    }
    if (before) before();
    std::lock_guard lock(mutex_);
    if (closed_) return 0;
    const auto start = tracker_.start(domain, message);
    if (start.action == RangeTracker::Action::Ignore) {
      warn("range '" + printable(message) + "' " + start.reason +
           " is ignored: only the outer range is effective");
      auto ignored = std::make_unique<RangeCapture>();
      ignored->range.id = new_id();
      ignored->range.name = std::string(message);
      ignored->range.domain = std::string(domain);
      ignored->range.order = start.order;
      ignored->range.thread_id = static_cast<std::uint64_t>(::syscall(SYS_gettid));
      ignored->range.stream = stream;
      ignored->range.start_ns = ignored->range.end_ns = wall_ns();
      ignored->range.status = trace::RangeStatus::Ignored;
      ignored->range.status_reason = start.reason;
      complete_range_locked(std::move(ignored));
    } else if (start.action == RangeTracker::Action::Capture) {
      CaptureTimer timer(*this);
      current_ = std::make_unique<RangeCapture>();
      current_id_ = start.id;
      auto& range = current_->range;
      range.id = new_id();
      range.name = std::string(message);
      range.domain = std::string(domain);
      range.order = start.order;
      range.thread_id = static_cast<std::uint64_t>(::syscall(SYS_gettid));
      range.stream = stream;
      range.start_ns = wall_ns();
      if (backend_ != nullptr) {
        pipeline_->prepare([&] { return snapshot_sizes_locked(); });
      }
      capturing_.store(true, std::memory_order_release);
    }
    return start.id;
  } catch (...) {
    return 0;
  }
}

std::vector<std::uint64_t> CaptureSession::snapshot_sizes_locked() {
  // Each buffer a range touches is snapshotted once at first use, and once
  // more at the end when the final state is kept.
  std::vector<std::uint64_t> sizes = backend_->buffer_sizes();
  if (config_.final_state) {
    const std::size_t n = sizes.size();
    for (std::size_t i = 0; i < n; ++i) sizes.push_back(sizes[i]);
  }
  return sizes;
}

void CaptureSession::buffer_created_locked(std::uint64_t size) {
  if (backend_ == nullptr || closed_) return;
  pipeline_->buffer_created(size, [&] { return snapshot_sizes_locked(); });
}

void CaptureSession::range_end(std::string_view, std::uint64_t id) noexcept {
  std::future<void> written;
  try {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    const auto end = tracker_.end(id);
    if (!end.known) {
      warn("range end for id " + std::to_string(id) + ", which is not an open range; ignored");
      return;
    }
    if (!end.captured || !current_ || current_id_ != id) return;
    ++ranges_finished_;
    capturing_.store(false, std::memory_order_release);
    auto capture = std::move(current_);
    capture->range.end_ns = wall_ns();
    if (capture->range.commands.empty() && unseen_work_) {
      if (const std::string why = unseen_work_(); !why.empty()) {
        warn("range '" + printable(capture->range.name) +
             "' holds no command, and the program's device work may have gone unseen: " + why);
      }
    }
    {
      // The final state's snapshots are taken here, on the program's thread.
      CaptureTimer timer(*this);
      if (backend_ != nullptr) backend_->finish_range(*capture, config_.final_state);
      const bool gated = capture->waits_on_program;
      complete_range_locked(std::move(capture));
      if (!config_.write_behind && !gated) written = range_written_locked();
    }
    if (config_.kill && tracker_.all_included_captured()) {
      closed_ = true;
      pipeline_->drain();
      notify_finished_locked();
      const std::string error = pipeline_->error();
      if (!error.empty()) report_write_failure(error);
      writer_->close();
      notify_launcher("captured-all");
    }
  } catch (const std::exception& e) {
    warn(std::string("recording the end of a range failed: ") + e.what());
  }
  // Outside the lock: the program's other threads go on meanwhile.
  if (written.valid()) {
    CaptureTimer timer(*this);
    written.wait_for(kRangeWriteLimit);
  }
}

std::future<void> CaptureSession::range_written_locked() {
  auto done = std::make_shared<std::promise<void>>();
  auto written = done->get_future();
  pipeline_->run([done](trace::TraceWriter& w) {
    try {
      w.flush();
      done->set_value();
    } catch (...) {
      done->set_exception(std::current_exception());
      throw;
    }
  });
  return written;
}

void CaptureSession::mark(std::string_view, std::string_view, std::uint64_t) noexcept {}

void CaptureSession::write_trace_info_locked() {
  // Written before the first range and again when a device API arrives or
  // shows more devices: a later record supersedes an earlier one. A program
  // that annotates ranges but makes no device call still gets one, with
  // the API "none", so its trace says what it is.
  auto devices = backend_ != nullptr ? backend_->devices() : std::vector<trace::DeviceInfo>{};
  if (info_written_ && (backend_ != nullptr) == info_has_backend_ &&
      devices.size() == devices_written_) {
    return;
  }
  devices_written_ = devices.size();
  info_has_backend_ = backend_ != nullptr;
  info_written_ = true;
  auto info = describe_capture(config_, static_cast<std::uint64_t>(::getpid()),
                               backend_ != nullptr ? "opencl" : "none", std::move(devices));
  pipeline_->run([info = std::move(info)](trace::TraceWriter& w) { w.write(info); });
}

void CaptureSession::write_objects_locked(const RangeCapture& capture) {
  for (const auto& [id, make] : capture.object_records) {
    if (!written_objects_.insert(id).second) continue;
    pipeline_->run([make](trace::TraceWriter& w) { w.write(make()); });
  }
}

void CaptureSession::complete_range_locked(std::unique_ptr<RangeCapture> capture) {
  if (capture->kernels > kKernelWarningLimit) {
    warn("range '" + printable(capture->range.name) + "' holds " +
         std::to_string(capture->kernels) + " kernels, more than the " +
         std::to_string(kKernelWarningLimit) +
         " the reference tool supports; it is recorded all the same");
  }
  write_trace_info_locked();
  write_objects_locked(*capture);
  capture->range.objects.assign(capture->objects.begin(), capture->objects.end());
  std::shared_ptr<RangeCapture> shared(std::move(capture));
  pipeline_->run([shared](trace::TraceWriter& w) {
    auto& range = shared->range;
    if (shared->finish_on_worker) shared->finish_on_worker(range);
    for (const auto& [buffer, slot] : shared->initial)
      range.initial_state.push_back({buffer, *slot});
    for (const auto& [buffer, slot] : shared->final) range.final_state.push_back({buffer, *slot});
    for (const auto& [index, slot] : shared->command_data) {
      auto& body = range.commands[index].body;
      if (auto* write = std::get_if<trace::BufferWrite>(&body)) write->data = *slot;
      if (auto* unmap = std::get_if<trace::BufferUnmap>(&body)) unmap->data = *slot;
    }
    w.write(range);
  });
}

void CaptureSession::notify_finished_locked() {
  notify_launcher("finished ranges=" + std::to_string(ranges_finished_));
}

void CaptureSession::report_write_failure(const std::string& message) {
  if (config_.status_fd >= 0) {
    notify_launcher("write-failed " + message);
  } else {
    std::fprintf(stderr, "msprof-record: error: writing the trace failed: %s\n", message.c_str());
  }
}

void CaptureSession::notify_launcher(const std::string& line) {
  if (config_.status_fd < 0) return;
  const std::string text = line + "\n";
  [[maybe_unused]] const ssize_t n = ::write(config_.status_fd, text.data(), text.size());
}

void CaptureSession::shutdown() noexcept {
  try {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    capturing_.store(false, std::memory_order_release);
    if (current_) {
      auto capture = std::move(current_);
      capture->range.status = trace::RangeStatus::Truncated;
      capture->range.status_reason = "still open when the program ended";
      capture->range.end_ns = wall_ns();
      warn("range '" + printable(capture->range.name) +
           "' was still open at exit; recorded as truncated");
      if (backend_ != nullptr) backend_->abandon_range(*capture);
      complete_range_locked(std::move(capture));
    }
    write_trace_info_locked();
    pipeline_->drain();
    notify_finished_locked();
    notify_launcher("stats capture_ns=" + std::to_string(capture_ns_.load()) +
                    " snapshot_bytes=" + std::to_string(pipeline_->bytes_captured()));
    const std::string error = pipeline_->error();
    if (!error.empty()) report_write_failure(error);
    writer_->close();
  } catch (const std::exception& e) {
    report_write_failure(std::string("finishing the trace failed: ") + e.what());
  }
}

}  // namespace msprof::record
