#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "format/trace_record.h"
#include "recorder/core/range_capture.h"

namespace msprof::record {

// What the core needs from the device layer (OpenCL today). Called with the
// session's lock held.
class CaptureBackend {
 public:
  // A record built on the snapshot worker, once the blobs it names exist.
  using DeferredRecord = std::function<trace::Record()>;

  virtual ~CaptureBackend() = default;
  // The range's end: snapshot the final state of the buffers it touched
  // (when asked) once what it enqueued is done, and fill in the device
  // timings, here or in RangeCapture::finish_on_worker.
  virtual void finish_range(RangeCapture& capture, bool final_state) = 0;
  // The range can no longer be finished on the device (program exit): drop
  // what it holds without calling the device.
  virtual void abandon_range(RangeCapture& capture) = 0;
  // The sizes of the buffers a range could snapshot now (each root buffer
  // alive), in no particular order.
  virtual std::vector<std::uint64_t> buffer_sizes() = 0;
  // The devices seen so far, in index order.
  virtual std::vector<trace::DeviceInfo> devices() = 0;
};

}  // namespace msprof::record
