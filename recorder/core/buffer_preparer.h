#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace msprof::record {

// Faults in snapshot buffers ahead of need, on a thread of its own that runs
// only on a CPU nothing else wants (SCHED_IDLE). A range queues its commands
// faster than the device runs them, so its snapshots are all in flight at
// once and, without this, each one gets fresh memory faulted in on the
// program's thread, in the middle of its range.
//
// That thread shares no lock with anyone: a thread of the lowest priority
// that was preempted holding a lock the program needs would stall the
// program for as long as the machine stays busy. The buffers are allocated
// by the caller, handed over and taken back through atomics only. The
// methods themselves are not thread-safe: SnapshotPipeline calls them under
// its own lock.
class BufferPreparer {
 public:
  enum class Priority { Idle, Normal };  // Normal: for tests, which need progress on a busy machine

  explicit BufferPreparer(Priority priority = Priority::Idle);
  ~BufferPreparer();
  BufferPreparer(const BufferPreparer&) = delete;
  BufferPreparer& operator=(const BufferPreparer&) = delete;

  // Prepares buffers of these sizes, in this order, instead of what an
  // earlier call asked for: the buffers of that call already faulted in
  // and not taken are returned (so the caller may keep them), the rest is
  // dropped. Allocates (without touching) on the calling thread; throws
  // std::bad_alloc.
  std::vector<std::vector<std::byte>> prepare(const std::vector<std::uint64_t>& sizes);
  // The smallest faulted-in buffer of at least `size` bytes, sized to its
  // full capacity; nullopt when none is ready.
  std::optional<std::vector<std::byte>> take(std::size_t size);
  // Stops preparing and returns what is faulted in and not taken.
  std::vector<std::vector<std::byte>> cancel();
  // Capacity asked for and not yet taken or dropped (faulted in or not):
  // counted against the snapshot memory bound.
  std::uint64_t pending_bytes() const { return pending_bytes_; }
  // Buffers ready to take.
  std::size_t ready_count() const;

 private:
  struct Batch {
    std::vector<std::vector<std::byte>> buffers;  // reserved; the thread fills them in order
    std::vector<std::uint64_t> sizes;
    std::atomic<std::size_t> done{0};  // buffers [0, done) are the caller's
    std::atomic<bool> cancelled{false};
    // The thread's last touch of the batch: only then may the caller free
    // it. Freeing on the thread would take the allocator's locks there.
    std::atomic<bool> released{false};
  };
  void run(Priority priority);
  // Frees retired batches the thread is done with.
  void bury();

  std::unique_ptr<Batch> batch_;                 // the caller's side
  std::vector<std::unique_ptr<Batch>> retired_;  // the thread may still be filling them
  std::vector<bool> taken_;
  std::uint64_t pending_bytes_ = 0;
  // A batch handed to the thread and not yet picked up.
  std::atomic<Batch*> handed_{nullptr};
  std::atomic<std::uint32_t> generation_{0};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace msprof::record
