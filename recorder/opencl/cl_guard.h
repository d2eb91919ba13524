#pragma once

#include <chrono>
#include <exception>
#include <mutex>
#include <string>

#include "recorder/core/capture_session.h"
#include "recorder/opencl/cl_recorder.h"

namespace msprof::record::opencl {

// Runs recorder bookkeeping under the session's lock, never letting an
// exception reach the program: a failure is reported and, inside a range,
// makes the range not replayable.
template <typename Fn>
void record_objects(Fn&& fn) noexcept {
  CaptureSession* session = CaptureSession::get();
  if (session == nullptr) return;
  try {
    std::lock_guard lock(session->mutex());
    fn(ClRecorder::instance().objects());
  } catch (const std::exception& e) {
    session->warn(std::string("recorder bookkeeping failed: ") + e.what());
  }
}

// Time the program spends in capture work, for the launcher's summary.
class CaptureTimer {
 public:
  explicit CaptureTimer(CaptureSession& session)
      : session_(session), start_(std::chrono::steady_clock::now()) {}
  ~CaptureTimer() {
    session_.add_capture_time(
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::steady_clock::now() - start_)
                                       .count()));
  }

 private:
  CaptureSession& session_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace msprof::record::opencl
