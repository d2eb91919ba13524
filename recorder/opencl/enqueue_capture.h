#pragma once

// The common shape of the enqueue intercepts (intercept_enqueue_*.cc):
// passed straight through outside a captured range; inside one, recorded as
// commands after the memory they touch is snapshotted.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "recorder/core/capture_session.h"
#include "recorder/core/capture_timer.h"
#include "recorder/opencl/cl_recorder.h"

namespace msprof::record::opencl {

inline std::vector<std::uint64_t> dims(cl_uint n, const size_t* v) {
  return v == nullptr ? std::vector<std::uint64_t>() : std::vector<std::uint64_t>(v, v + n);
}

// An intercepted enqueue. `prepare` runs under the lock before the real
// call (snapshots, the command); `call` is the real call, given the event
// pointer to pass down.
template <typename Prepare, typename Call>
cl_int captured(cl_command_queue queue, cl_event* event, Prepare&& prepare, Call&& call) {
  CaptureSession* session = CaptureSession::get();
  if (session == nullptr || !session->capturing()) return call(event);
  std::unique_lock lock(session->mutex());
  RangeCapture* capture = session->current();
  if (capture == nullptr) {
    lock.unlock();
    return call(event);
  }
  ClRecorder& recorder = ClRecorder::instance();
  std::optional<std::size_t> index;
  {
    CaptureTimer timer(*session);
    try {
      recorder.use_queue(*capture, queue);
      index = prepare(*capture, recorder);
    } catch (const std::exception& e) {
      session->not_replayable(std::string("recorder: ") + e.what());
    }
  }
  cl_event own = nullptr;
  const cl_int status = call(event != nullptr ? event : &own);
  CaptureTimer timer(*session);
  recorder.after_enqueue(*capture, index, status, event, own);
  return status;
}

// A call that cannot be replayed yet: the range is marked, the program goes on.
template <typename Call>
auto unreplayable(const char* name, Call&& call) {
  CaptureSession* session = CaptureSession::get();
  if (session != nullptr && session->capturing()) {
    std::lock_guard lock(session->mutex());
    session->not_replayable(name);
  }
  return call();
}

// Host bytes of a rectangular transfer, packed into a snapshot buffer (a
// recycled one, as snapshot_copy takes): the region's rows, in order.
std::vector<std::byte> pack_rect(const void* ptr, const size_t* host_origin, const size_t* region,
                                 size_t row_pitch, size_t slice_pitch);

trace::Rect make_rect(const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                      size_t brp, size_t bsp, size_t hrp, size_t hsp);

// Records the unmap of `mapping` of the memory object `id` at `mapped`: a
// command that carries what the host wrote (packed, for an image region
// at the driver's pitches). Returns its index.
std::size_t record_unmap(RangeCapture& capture, ClRecorder& recorder, cl_command_queue queue,
                         cl_uint num_wait, const cl_event* wait, CaptureId id,
                         const Mapping& mapping, const void* mapped);

}  // namespace msprof::record::opencl
