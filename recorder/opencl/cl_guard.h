#pragma once

#include <exception>
#include <mutex>
#include <string>

#include "recorder/core/capture_session.h"
#include "recorder/core/capture_timer.h"
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

// Set on the thread running a clEnqueueSVMFree callback: the driver may run
// it inside the enqueue, where the session's lock is held, or on a thread
// of its own while the program holds the lock waiting for that queue; the
// pointers were forgotten at the enqueue, so its clSVMFree calls pass
// straight through.
inline thread_local bool inside_svm_free_callback = false;

}  // namespace msprof::record::opencl
