#pragma once

#include <optional>
#include <vector>

#include "replayer/opencl/device_memory.h"

namespace msprof::replay::opencl {

// The region of an image command; PlanError where the trace gives none.
const trace::Rect& image_rect(const std::optional<trace::Rect>& rect, std::uint64_t seq);

// A rect of an image command in pixels: the trace gives x in bytes.
struct PixelRect {
  std::array<std::size_t, 3> origin{0, 0, 0}, other{0, 0, 0}, region{1, 1, 1};
};
PixelRect pixels(const trace::ImageDesc& image, const trace::Rect& rect);

// An image of the trace, made with its recorded type, size and format (over
// its replayed buffer where it was made over one), written and read whole
// in its packed layout; its commands replay as the image calls they were,
// the rect's x (in bytes in the trace) back in pixels. Restored from a copy
// on the device only: its rows do not fall on the trace's chunks.
class ImageMemory : public DeviceMemory {
 public:
  // PlanError for a damaged description, DeviceError where the device
  // cannot make the image.
  ImageMemory(const MemoryContext& context, const trace::Buffer& record,
              const DeviceMemory* parent);

  cl_mem mem() const override { return mem_.get(); }
  const trace::ImageDesc* image() const override { return &desc_; }

  void upload(const trace::TraceReader& reader, const trace::BlobRef& blob) override;
  cl_event enqueue_write(const Submission& at, const trace::BufferWrite& write,
                         std::span<const std::byte> data) override;
  cl_event enqueue_read(const Submission& at, const trace::BufferRead& read,
                        std::span<std::byte> data) override;
  cl_event enqueue_fill(const Submission& at, const trace::BufferFill& fill) override;
  cl_int keep_copy() override;
  bool must_copy() const override { return true; }
  void write_restored(cl_command_queue queue, std::uint64_t offset,
                      std::span<const std::byte> bytes) override;
  void read(std::uint64_t offset, std::span<std::byte> out) override;
  void forget_reads() override { packed_.reset(); }

 protected:
  void restore_from_copy(cl_command_queue queue, unsigned workers) override;
  void restore_zeros(cl_command_queue queue, unsigned workers) override;
  cl_event enqueue_unmap_write(const Submission& at, const trace::BufferUnmap& unmap,
                               std::span<const std::byte> data) override;

 private:
  ClMem create(cl_int& err) const;
  // The whole image, in pixels.
  PixelRect whole_image() const;
  // A write or read of the image's region, packed on the host side.
  cl_event transfer(const Submission& at, bool write, const std::optional<trace::Rect>& rect,
                    std::byte* data);

  const trace::ImageDesc desc_;
  const cl_mem parent_;  // the buffer it was made over, or null
  ClMem mem_;
  ClMem copy_;  // the pristine copy, where restored from one
  // The whole image read packed, for verification's pieces; until the
  // device changes it.
  std::optional<std::vector<std::byte>> packed_;
};

}  // namespace msprof::replay::opencl
