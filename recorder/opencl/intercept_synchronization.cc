// Markers, barriers and host waits: recorded inside a range, so replay
// keeps the dependencies and knows where the program synchronised.
#include <vector>

#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/enqueue_capture.h"

namespace msprof::record::opencl {
namespace {

cl_int CL_API_CALL layer_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nw,
                                                     const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, nw, w, false, trace::Marker{});
      },
      [&](cl_event* e) { return next().clEnqueueMarkerWithWaitList(q, nw, w, e); });
}

cl_int CL_API_CALL layer_clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint nw,
                                                      const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, nw, w, false, trace::Barrier{});
      },
      [&](cl_event* e) { return next().clEnqueueBarrierWithWaitList(q, nw, w, e); });
}

cl_int CL_API_CALL layer_clEnqueueMarker(cl_command_queue q, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, 0, nullptr, false, trace::Marker{});
      },
      [&](cl_event* e) { return next().clEnqueueMarker(q, e); });
}

cl_int CL_API_CALL layer_clEnqueueBarrier(cl_command_queue q) {
  cl_event* none = nullptr;
  return captured(
      q, none,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, 0, nullptr, false, trace::Barrier{});
      },
      [&](cl_event*) { return next().clEnqueueBarrier(q); });
}

cl_int CL_API_CALL layer_clEnqueueWaitForEvents(cl_command_queue q, cl_uint n,
                                                const cl_event* events) {
  cl_event* none = nullptr;
  return captured(
      q, none,
      [&](RangeCapture& c, ClRecorder& r) {
        return r.add_command(c, q, n, events, false, trace::Barrier{});
      },
      [&](cl_event*) { return next().clEnqueueWaitForEvents(q, n, events); });
}

// Host waits inside a range are recorded, so replay knows where the program
// synchronised; outside a range they pass straight through.
void record_host_wait(std::vector<trace::CaptureId> (*ids)(cl_uint, const cl_event*), cl_uint n,
                      const cl_event* events) {
  CaptureSession* session = CaptureSession::get();
  if (session == nullptr || !session->capturing()) return;
  std::lock_guard lock(session->mutex());
  RangeCapture* capture = session->current();
  if (capture == nullptr) return;
  try {
    ClRecorder::instance().add_command(*capture, nullptr, 0, nullptr, true,
                                       trace::HostWait{ids(n, events)});
  } catch (const std::exception& e) {
    session->not_replayable(std::string("recorder: ") + e.what());
  }
}

std::vector<trace::CaptureId> event_ids(cl_uint n, const cl_event* events) {
  return ClRecorder::instance().wait_ids(n, events);
}

cl_int CL_API_CALL layer_clFinish(cl_command_queue q) {
  record_host_wait([](cl_uint, const cl_event*) { return std::vector<trace::CaptureId>(); }, 0,
                   nullptr);
  return next().clFinish(q);
}

cl_int CL_API_CALL layer_clWaitForEvents(cl_uint n, const cl_event* events) {
  record_host_wait(event_ids, n, events);
  return next().clWaitForEvents(n, events);
}

}  // namespace

void install_synchronization_intercepts(cl_icd_dispatch& t) {
  t.clEnqueueMarkerWithWaitList = layer_clEnqueueMarkerWithWaitList;
  t.clEnqueueBarrierWithWaitList = layer_clEnqueueBarrierWithWaitList;
  t.clEnqueueMarker = layer_clEnqueueMarker;
  t.clEnqueueBarrier = layer_clEnqueueBarrier;
  t.clEnqueueWaitForEvents = layer_clEnqueueWaitForEvents;
  t.clFinish = layer_clFinish;
  t.clWaitForEvents = layer_clWaitForEvents;
}

}  // namespace msprof::record::opencl
