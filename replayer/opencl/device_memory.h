#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "format/trace_reader.h"
#include "replayer/core/host/host_line_flush.h"
#include "replayer/core/restore/address_translation.h"
#include "replayer/opencl/cl_handle.h"

namespace msprof::replay::opencl {

class OpenClDevice;

// What the memory objects of one range share: the device, whether their
// bytes are evicted line by line before a pass (and where), and where the
// range's pointer allocations went.
struct MemoryContext {
  OpenClDevice& device;
  const bool evicts_lines;
  HostLineFlush& line_flush;
  AddressTranslation& addresses;

  cl_context context() const;
  cl_command_queue control_queue() const;
  // A buffer for the range: in host memory of ours where the range evicts
  // its own lines, so they can be evicted (host_bytes, if given, then says
  // where); the driver's otherwise.
  ClMem create_buffer(cl_mem_flags flags, std::uint64_t size, cl_int& err,
                      std::span<const std::byte>* host_bytes = nullptr) const;
};

// Where a command of the range goes and what it waits for.
struct Submission {
  cl_command_queue queue = nullptr;
  std::span<const cl_event> waits;
  std::uint64_t seq = 0;  // the command's, for messages

  cl_uint count() const { return static_cast<cl_uint>(waits.size()); }
  const cl_event* list() const { return waits.empty() ? nullptr : waits.data(); }
  // A marker after the waits, for a command that only orders.
  cl_event marker() const;
};

// One memory object of the trace made on the device: a buffer, a
// sub-buffer, a pointer allocation (SVM) or an image. It owns its device
// object and what puts it back before a pass, and turns each command of
// the range on it into the device's call; the range keeps one table of
// them by capture id, so a new kind of memory is one new subclass.
class DeviceMemory {
 public:
  // How the object is put back before each pass, besides from the trace
  // (which the range's TraceRestorer does through write_restored).
  enum class Restore { Nothing, Copy, Zeros };

  DeviceMemory(const MemoryContext& context, const trace::Buffer& record)
      : context_(context), record_(record) {}
  virtual ~DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  trace::CaptureId id() const { return record_.id; }
  std::uint64_t size() const { return record_.size; }
  const trace::Buffer& record() const { return record_; }

  // The OpenCL memory object, for arguments and buffer-to-buffer commands;
  // none for a pointer allocation.
  virtual cl_mem mem() const { return nullptr; }
  // The replayed address of a pointer allocation; null for the others.
  virtual std::byte* pointer() const { return nullptr; }
  // An image's description; null for the others.
  virtual const trace::ImageDesc* image() const { return nullptr; }

  // Writes the initial state (the object was made zeros).
  virtual void upload(const trace::TraceReader& reader, const trace::BlobRef& blob) = 0;
  // Bytes the host sends to `offset` of this object in the range, with the
  // recorded addresses they hold moved to the replayed allocations where
  // this object is memory addressed by pointer.
  virtual void translate_in(std::span<std::byte> /*bytes*/, std::uint64_t /*offset*/) {}
  // The stored pointers moved so far by upload() and translate_in().
  virtual std::uint64_t pointers_moved() const { return 0; }

  // The range's commands on this object, enqueued after `at`'s waits; `data`
  // is the command's host side (a write's bytes, a read's destination).
  virtual cl_event enqueue_write(const Submission& at, const trace::BufferWrite& write,
                                 std::span<const std::byte> data) = 0;
  virtual cl_event enqueue_read(const Submission& at, const trace::BufferRead& read,
                                std::span<std::byte> data) = 0;
  virtual cl_event enqueue_fill(const Submission& at, const trace::BufferFill& fill) = 0;
  // What the host left in a write mapping is a write; a mapping without
  // data only orders, like a marker.
  cl_event enqueue_unmap(const Submission& at, const trace::BufferUnmap& unmap,
                         std::span<const std::byte> data);

  // Makes a pristine copy on the device to restore from; CL_SUCCESS, or the
  // error that leaves the restore to the trace. An object that can only be
  // restored from a copy throws instead (must_copy()).
  virtual cl_int keep_copy() = 0;
  virtual bool must_copy() const { return false; }
  // Restored from its copy or by zeros before each pass.
  void restore_by(Restore how) { restore_ = how; }
  Restore restored_by() const { return restore_; }
  // Enqueues this pass's restore on `queue`, cut in `workers` pieces.
  void restore(cl_command_queue queue, unsigned workers);
  // A piece of the initial state read from the trace, written in place;
  // blocking. Called from several threads at once for distinct pieces.
  virtual void write_restored(cl_command_queue queue, std::uint64_t offset,
                              std::span<const std::byte> bytes) = 0;

  // Reads `out.size()` bytes at `offset` for verification, as recorded
  // (pointers moved back to the recorded addresses); blocking.
  virtual void read(std::uint64_t offset, std::span<std::byte> out) = 0;
  // The device may have changed the object (a pass ran): reads kept for
  // verification are stale.
  virtual void forget_reads() {}

 protected:
  virtual void restore_from_copy(cl_command_queue queue, unsigned workers) = 0;
  virtual void restore_zeros(cl_command_queue queue, unsigned workers) = 0;
  virtual cl_event enqueue_unmap_write(const Submission& at, const trace::BufferUnmap& unmap,
                                       std::span<const std::byte> data) = 0;

  const MemoryContext& context_;
  const trace::Buffer& record_;  // the catalog's, which outlives the range

 private:
  Restore restore_ = Restore::Nothing;
};

// The first three entries of `v` (the others `fill`), as OpenCL's origins
// and regions take them.
std::array<std::size_t, 3> triple(const std::vector<std::uint64_t>& v, std::size_t fill);

}  // namespace msprof::replay::opencl
