#pragma once

#include <chrono>
#include <cstdint>

#include "recorder/core/capture_session.h"

namespace msprof::record {

// Time the program's threads spend in capture work, for the launcher's
// summary: the part of recording's cost that no other core can take.
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
  CaptureTimer(const CaptureTimer&) = delete;
  CaptureTimer& operator=(const CaptureTimer&) = delete;

 private:
  CaptureSession& session_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace msprof::record
