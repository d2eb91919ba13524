#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/trace_commands.h"
#include "format/trace_objects.h"
#include "recorder/core/memory_table.h"
#include "recorder/core/snapshot_pipeline.h"
#include "recorder/opencl/cl_next.h"

namespace msprof::record::opencl {

using record::MemoryKey;
using trace::CaptureId;

inline MemoryKey key_of(cl_mem mem) {
  return MemoryKey::handle(mem);
}

// A host mapping of a memory object, kept from map to unmap.
struct Mapping {
  cl_map_flags flags = 0;
  std::uint64_t offset = 0, size = 0;
  std::uint64_t seq = 0;  // the map command, in the range that mapped it
  CaptureId range = 0;    // that range; 0 when mapped outside a captured range
  // An image mapping: the region (x in bytes) and the driver's pitches.
  std::optional<trace::Rect> rect;
  std::size_t row_step = 0, slice_step = 0;

  bool host_writes() const {
    return (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
  }
};

// A read of a memory object's state that the recorder asks for: when, on
// which queue after which events, and what that queue's order allows.
struct StateRead {
  enum class When {
    Initial,     // before the range's first command that uses it
    Final,       // at the range's end, behind the range's commands
    QueuedFree,  // ahead of a free enqueued on `queue`
    Free,        // ahead of a free that happens when the call returns
  };
  When when = When::Initial;
  cl_command_queue queue = nullptr;
  cl_uint num_wait = 0;
  const cl_event* wait = nullptr;
  bool queue_in_order = false;  // `queue` runs its commands in order
  // Final: the range used this one in-order queue alone, so reads queued
  // behind its commands run after them without the program waiting.
  bool range_in_order = false;
};

// One memory object of the program, of whatever kind (a subclass each:
// cl_buffer.h, cl_image.h, cl_svm.h, and unreplayable memory below): what
// the recorder tracks of it, and how its state is read. The recorder keeps
// them all in one MemoryTable and treats them alike: it describes an
// object and those under it, reads the state of the one that holds the
// bytes, holds that one while a range touches it, and records its host
// mappings. Guarded by the session's lock, as the table.
class ClMemory {
 public:
  ClMemory(CaptureId id, cl_context context, cl_mem_flags flags, std::uint64_t size)
      : id_(id), context_(context), flags_(flags), size_(size) {}
  virtual ~ClMemory() = default;
  ClMemory(const ClMemory&) = delete;
  ClMemory& operator=(const ClMemory&) = delete;

  CaptureId id() const { return id_; }
  cl_context context() const { return context_; }
  cl_mem_flags flags() const { return flags_; }
  std::uint64_t size() const { return size_; }

  // The object whose bytes these are, from origin() on: a sub-buffer's
  // buffer, the SVM allocation a buffer was made over, the buffer an image
  // was made over. None when the object holds its own memory: then its
  // state is its own, read by read_state, and it counts as an allocation.
  const std::optional<MemoryKey>& parent() const { return parent_; }
  std::uint64_t origin() const { return origin_; }
  void set_parent(MemoryKey parent, std::uint64_t origin) {
    parent_ = parent;
    origin_ = origin;
  }

  // An image's shape and format; null for other kinds.
  virtual const trace::ImageDesc* image() const { return nullptr; }
  // Why a range that uses it cannot replay; nothing when it can.
  virtual std::optional<std::string> unreplayable() const { return std::nullopt; }
  // Its record, but for the ids of its context and parent, which the
  // recorder fills in.
  virtual trace::Buffer record() const;
  // Reads the whole state of an object without a parent into a snapshot.
  // A failure throws; one that leaves the range without that state is
  // reported by the caller.
  virtual SnapshotPipeline::BlobSlot read_state(const StateRead& read) = 0;
  // Kept alive from the range's first use to its end, so the program's
  // releases inside the range cannot free what the recorder still reads.
  virtual void hold() {}
  virtual void release() {}
  // Its memory is about to be freed (on `queue`, or when the call returns
  // if null): the recorder's own reads of it that the free could overtake
  // must end first.
  virtual void before_free(cl_command_queue /*queue*/, bool /*queue_in_order*/) {}

  // Host mappings, by the pointer the map returned, from map to unmap.
  std::unordered_map<void*, Mapping>& mappings() { return mappings_; }

 private:
  CaptureId id_;
  cl_context context_;
  cl_mem_flags flags_;
  std::uint64_t size_;
  std::optional<MemoryKey> parent_;
  std::uint64_t origin_ = 0;
  std::unordered_map<void*, Mapping> mappings_;
};

// Memory the recorder cannot replay: pipes, images of an unknown layout or
// made from another image. It has no capture id; a range that uses it is
// not replayable.
class ClUnreplayableMemory final : public ClMemory {
 public:
  ClUnreplayableMemory() : ClMemory(0, nullptr, 0, 0) {}
  std::optional<std::string> unreplayable() const override {
    return "a pipe, GL object, or image of an unknown format or made from another image";
  }
  SnapshotPipeline::BlobSlot read_state(const StateRead&) override;
};

std::string cl_error(const char* what, cl_int status);

// Hands `bytes`, which the asynchronous read `read` is filling, to the
// snapshot worker, which waits for the read and releases it; with no event
// (a blocking read) the bytes are there already.
SnapshotPipeline::BlobSlot snapshot_when_read(std::vector<std::byte> bytes, cl_event read);

}  // namespace msprof::record::opencl
