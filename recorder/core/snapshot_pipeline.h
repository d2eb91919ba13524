#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "format/trace_writer.h"
#include "recorder/core/buffer_preparer.h"

namespace msprof::record {

// Takes snapshots off the application's threads: hashing, dedup, compression
// and writing happen on a worker, in the order things were handed over, with
// the bytes not yet written bounded. The application waits for the
// device-to-host copy only where the device gives no order to rely on
// (otherwise the worker waits for it), and for the bound when it is reached.
class SnapshotPipeline {
 public:
  using BlobSlot = std::shared_ptr<trace::BlobRef>;  // filled in by the worker
  using Task = std::function<void(trace::TraceWriter&)>;

  SnapshotPipeline(trace::TraceWriter& writer, std::uint64_t memory_bound, bool progress,
                   BufferPreparer::Priority preparer_priority = BufferPreparer::Priority::Idle);
  ~SnapshotPipeline();
  SnapshotPipeline(const SnapshotPipeline&) = delete;
  SnapshotPipeline& operator=(const SnapshotPipeline&) = delete;

  // A buffer of `size` bytes for the next snapshot, recycled from earlier
  // snapshots when one is free: a fresh allocation of tens of MiB costs more
  // in page faults than the device-to-host copy that fills it.
  std::vector<std::byte> buffer(std::size_t size);
  BlobSlot snapshot(std::vector<std::byte> bytes);
  // The program's own bytes (a host write, an unmapped region), copied into
  // a buffer from buffer(): the program may change them once its call
  // returns, and a recycled buffer spares its thread the page faults of a
  // fresh one.
  BlobSlot snapshot_copy(std::span<const std::byte> bytes);
  // Bytes read in place on the caller's thread (a device buffer's mapping),
  // done when this returns: chunks the trace holds are only hashed, the
  // others copied into the writer's chunk buffers. The caller waits for
  // their compression where the writer's bound is reached.
  BlobSlot snapshot_in_place(std::span<const std::byte> bytes);
  // A snapshot whose bytes are still arriving (an asynchronous device read):
  // the worker calls `arrived` first, which waits for them or throws.
  BlobSlot snapshot(std::vector<std::byte> bytes, std::function<void()> arrived);
  // A range starts: buffers for its snapshots are faulted in ahead by
  // BufferPreparer, of the sizes the last range asked for, or, for the
  // first, of those `first_range_sizes` returns (every buffer it could
  // snapshot; not called otherwise), as far as a share of the memory bound
  // leaves room; what kept buffers and snapshots in flight (which come back
  // for reuse) already cover is not prepared again.
  void prepare(const std::function<std::vector<std::uint64_t>()>& first_range_sizes);
  // A buffer of `size` bytes was created. Until the first range starts,
  // buffers for it (of the sizes `sizes` returns, as for prepare()) are
  // faulted in while the program sets up, up to half the memory bound:
  // setup is mostly one thread of the program, so a core is idle then,
  // where a range's own kernels keep every core busy. What is faulted in
  // is kept until the first range starts (kept buffers go back after 2 s
  // without snapshots only from then on). Cheap when nothing is to be
  // done: `sizes` is called only once created buffers have grown by a
  // step since the last call.
  void buffer_created(std::uint64_t size, const std::function<std::vector<std::uint64_t>()>& sizes);
  // Runs after every snapshot handed over before it.
  void run(Task task);
  // Waits until everything handed over is done and every buffer the writer
  // read in place is back.
  void drain();
  // The first error a task raised, if any ("" when none).
  std::string error() const;
  std::uint64_t bytes_captured() const;
  // Capacity of the buffers kept for reuse.
  std::uint64_t kept_bytes() const;
  // Capacity asked of the preparer and not yet taken, and how many of
  // those buffers are faulted in and ready.
  std::uint64_t prepared_bytes() const;
  std::size_t prepared_ready() const;

 private:
  struct Item {
    std::vector<std::byte> bytes;
    BlobSlot slot;
    Task task;
    std::function<void()> arrived;
  };
  void run_worker();
  void show_progress(std::uint64_t left);
  // Whether a snapshot of `size` bytes may go in flight now. Called with
  // mutex_ held.
  bool has_room_locked(std::uint64_t size) const;
  // A snapshot's buffer, done with: its bytes stop counting in flight, and
  // it is kept for reuse while snapshots in flight plus kept buffers stay
  // within the memory bound. Called with mutex_ held.
  void recycle_locked(std::vector<std::byte> bytes);
  // A snapshot's buffer, back from the writer that read it in place; on
  // the writer's threads.
  void give_back(std::vector<std::byte> bytes) noexcept;
  // Faulted-in buffers the preparer no longer offers, kept like recycled
  // ones where the bound leaves room. Called with mutex_ held.
  void keep_prepared_locked(std::vector<std::vector<std::byte>> buffers);
  // Prepares buffers of `sizes` not covered by kept buffers or snapshots in
  // flight, at most `cap` bytes of them. Called with mutex_ held.
  void prepare_locked(std::vector<std::uint64_t> sizes, std::uint64_t cap);

  trace::TraceWriter& writer_;
  const std::uint64_t memory_bound_;
  const bool progress_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_, space_ready_;
  std::deque<Item> queue_;
  std::uint64_t bytes_in_flight_ = 0;
  std::uint64_t items_in_flight_ = 0;
  std::uint64_t bytes_captured_ = 0;
  std::vector<std::vector<std::byte>> free_buffers_;
  std::uint64_t free_bytes_ = 0;  // capacity of free_buffers_
  BufferPreparer preparer_;       // used with mutex_ held
  // Sizes of the buffers asked for since the last prepare(): what the next
  // range is likely to need.
  std::vector<std::uint64_t> asked_;
  bool stopping_ = false;
  bool range_prepared_ = false;  // prepare() has run: buffer_created() is done
  std::uint64_t created_bytes_ = 0;
  std::uint64_t created_at_last_ahead_ = 0;
  bool progress_shown_ = false;
  std::string error_;
  std::thread worker_;
};

}  // namespace msprof::record
