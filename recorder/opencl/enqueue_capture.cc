#include "recorder/opencl/enqueue_capture.h"

#include <cstring>
#include <utility>

namespace msprof::record::opencl {

std::vector<std::byte> pack_rect(const void* ptr, const size_t* host_origin, const size_t* region,
                                 size_t row_pitch, size_t slice_pitch) {
  if (row_pitch == 0) row_pitch = region[0];
  if (slice_pitch == 0) slice_pitch = row_pitch * region[1];
  std::vector<std::byte> out =
      CaptureSession::get()->snapshot_buffer(region[0] * region[1] * region[2]);
  const auto* base = static_cast<const std::byte*>(ptr);
  std::byte* at = out.data();
  for (size_t z = 0; z < region[2] && region[0] > 0; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      const std::byte* row = base + (host_origin[2] + z) * slice_pitch +
                             (host_origin[1] + y) * row_pitch + host_origin[0];
      std::memcpy(at, row, region[0]);
      at += region[0];
    }
  }
  return out;
}

trace::Rect make_rect(const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                      size_t brp, size_t bsp, size_t hrp, size_t hsp) {
  trace::Rect rect{
      dims(3, buffer_origin), dims(3, host_origin), dims(3, region), brp, bsp, hrp, hsp};
  return rect;
}

std::size_t record_unmap(RangeCapture& capture, ClRecorder& recorder, cl_command_queue queue,
                         cl_uint num_wait, const cl_event* wait, CaptureId id,
                         const Mapping& mapping, const void* mapped) {
  const bool mapped_here = mapping.range != 0 && mapping.range == capture.range.id;
  trace::BufferUnmap unmap{
      id,          mapped_here ? mapping.seq : trace::kMappedBeforeRange, mapping.offset, 0, {},
      mapping.rect};
  const bool wrote = mapping.host_writes();
  if (wrote) unmap.size = mapping.size;
  const std::size_t index =
      recorder.add_command(capture, queue, num_wait, wait, false, std::move(unmap));
  if (wrote && mapping.rect) {
    // The host wrote the image's region at the driver's pitches.
    const size_t zero[3] = {0, 0, 0};
    const size_t region[3] = {mapping.rect->region[0], mapping.rect->region[1],
                              mapping.rect->region[2]};
    capture.command_data.emplace_back(
        index, CaptureSession::get()->snapshot(
                   pack_rect(mapped, zero, region, mapping.row_step, mapping.slice_step)));
  } else if (wrote) {
    const auto* bytes = static_cast<const std::byte*>(mapped);
    capture.command_data.emplace_back(index,
                                      CaptureSession::get()->snapshot_copy({bytes, mapping.size}));
  }
  return index;
}

}  // namespace msprof::record::opencl
