#include "recorder/core/snapshot_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>

#include "recorder/core/untouched_memory.h"
#include "thread_name/thread_name.h"

namespace msprof::record {
namespace {

constexpr std::chrono::seconds kKeepIdleBuffers{2};
// Preparation takes at most this share of the memory bound. The sizes are a
// guess (what the last range used, or every buffer alive), and what it
// holds is room that buffers coming back from the writer cannot be kept
// in: given the whole bound, 64 MiB snapshots freed their recycled buffers
// and took freshly faulted ones instead, costing CPU and wall time in the
// record bench. Small buffers, where a fault per page is most of a
// snapshot's cost to the program, fit under it: an eighth of the default
// bound (16 MiB) spared the record bench's 1 MiB case most of its time in
// the recorder, where a sixteenth spared less.
constexpr std::uint64_t kPrepareShare = 8;
// Before the first range nothing comes back from the writer to be kept, so
// preparation may hold more of the bound: half of it covers the 48 MiB of
// snapshots of the record bench's 1 MiB case.
constexpr std::uint64_t kAheadShare = 2;
// Created buffers grow by at least this share of the bound between two
// looks at every buffer alive.
constexpr std::uint64_t kAheadStep = 32;
// Sizes remembered per range for the next one's preparation; past this a
// range asks for more buffers than are worth preparing anyway.
constexpr std::size_t kAskedKept = 4096;

}  // namespace

SnapshotPipeline::SnapshotPipeline(trace::TraceWriter& writer, std::uint64_t memory_bound,
                                   bool progress, BufferPreparer::Priority preparer_priority)
    : writer_(writer),
      memory_bound_(memory_bound),
      progress_(progress),
      preparer_(preparer_priority) {
  worker_ = std::thread([this] { run_worker(); });
}

SnapshotPipeline::~SnapshotPipeline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  worker_.join();
  // Buffers still lent to the writer come back here: wait for them.
  writer_.wait_for_loans();
}

std::vector<std::byte> SnapshotPipeline::buffer(std::size_t size) {
  std::vector<std::byte> out;
  {
    std::unique_lock lock(mutex_);
    if (asked_.size() < kAskedKept) asked_.push_back(size);
    // Best fit, so a small snapshot does not hold on to a large buffer.
    const auto best_fit = [&] {
      auto best = free_buffers_.end();
      for (auto it = free_buffers_.begin(); it != free_buffers_.end(); ++it) {
        if (it->capacity() >= size &&
            (best == free_buffers_.end() || it->capacity() < best->capacity()))
          best = it;
      }
      return best;
    };
    auto best = best_fit();
    if (best == free_buffers_.end()) {
      if (auto prepared = preparer_.take(size)) {
        out = std::move(*prepared);
        out.resize(size);
        return out;
      }
      // snapshot() would wait for room anyway. Waiting first lets a buffer
      // that comes back meanwhile be reused: at the bound, allocating first
      // gave every snapshot a fresh buffer (64 MiB of page faults on the
      // program's thread) while the one coming back found no room to be
      // kept in and was freed.
      space_ready_.wait(lock, [&] { return has_room_locked(size); });
      best = best_fit();
      if (best == free_buffers_.end()) {
        if (auto prepared = preparer_.take(size)) out = std::move(*prepared);
      }
    }
    if (best != free_buffers_.end()) {
      out = std::move(*best);
      free_buffers_.erase(best);
      free_bytes_ -= out.capacity();
    }
  }
  out.resize(size);
  return out;
}

bool SnapshotPipeline::has_room_locked(std::uint64_t size) const {
  // A snapshot larger than the bound still goes through, alone.
  return bytes_in_flight_ == 0 || bytes_in_flight_ + size <= memory_bound_;
}

void SnapshotPipeline::recycle_locked(std::vector<std::byte> bytes) {
  bytes_in_flight_ -= bytes.size();
  const std::uint64_t capacity = bytes.capacity();
  const std::uint64_t taken = bytes_in_flight_ + preparer_.pending_bytes();
  if (capacity == 0 || taken + capacity > memory_bound_) return;
  // Smaller kept buffers make room: a 225 KiB program binary kept at the
  // bound had every 64 MiB buffer coming back freed, and the next snapshot
  // faulted in a fresh one.
  while (taken + free_bytes_ + capacity > memory_bound_) {
    const auto smallest =
        std::min_element(free_buffers_.begin(), free_buffers_.end(),
                         [](const auto& a, const auto& b) { return a.capacity() < b.capacity(); });
    if (smallest == free_buffers_.end() || smallest->capacity() >= capacity) return;
    free_bytes_ -= smallest->capacity();
    free_buffers_.erase(smallest);
  }
  free_bytes_ += capacity;
  free_buffers_.push_back(std::move(bytes));
}

void SnapshotPipeline::prepare(
    const std::function<std::vector<std::uint64_t>()>& first_range_sizes) {
  std::lock_guard lock(mutex_);
  // First, so that a failure below still ends the preparation before the
  // first range and the hold on kept buffers.
  range_prepared_ = true;
  // An earlier range's preparation ends here; what it faulted in is kept.
  keep_prepared_locked(preparer_.cancel());
  // Consecutive ranges of a program mostly do alike: what the last one
  // asked for is a far closer guess than every buffer alive (8 times too
  // many in the record bench, where each range uses 3 of 24 buffers, twice).
  std::vector<std::uint64_t> sizes;
  sizes.swap(asked_);
  if (sizes.empty()) sizes = first_range_sizes();
  prepare_locked(std::move(sizes), memory_bound_ / kPrepareShare);
  // The worker holds kept buffers without a timeout until the first range,
  // and starts the idle time of what is kept and prepared from here.
  work_ready_.notify_all();
}

void SnapshotPipeline::buffer_created(std::uint64_t size,
                                      const std::function<std::vector<std::uint64_t>()>& sizes) {
  std::lock_guard lock(mutex_);
  if (range_prepared_) return;
  created_bytes_ += size;
  // Steps grow with what was created, so a program that creates gigabytes
  // of buffers looks a few dozen times, not once every few MiB.
  const std::uint64_t step = std::max(memory_bound_ / kAheadStep, created_at_last_ahead_ / 8);
  // A look while the last one's buffers are still being faulted in drops
  // the one in progress, at most one buffer's pages a look. Waiting for
  // them instead left a program that creates its buffers in a tight loop
  // with the first look's buffers only: no creation came after to look.
  if (created_bytes_ < created_at_last_ahead_ + step) return;
  created_at_last_ahead_ = created_bytes_;
  const std::uint64_t limit = memory_bound_ / kAheadShare;
  if (free_bytes_ + preparer_.pending_bytes() >= limit) return;
  keep_prepared_locked(preparer_.cancel());
  // Kept and prepared buffers together stay within the limit.
  prepare_locked(sizes(), limit - std::min(limit, free_bytes_));
}

void SnapshotPipeline::prepare_locked(std::vector<std::uint64_t> sizes, std::uint64_t cap) {
  // What the kept buffers fit is covered; so, by bytes, is what snapshots
  // in flight will give back.
  std::vector<std::uint64_t> kept;
  for (const auto& b : free_buffers_) kept.push_back(b.capacity());
  std::sort(kept.begin(), kept.end());
  std::sort(sizes.begin(), sizes.end());
  std::vector<std::uint64_t> wanted;
  std::uint64_t wanted_bytes = 0;
  for (const std::uint64_t size : sizes) {
    if (const auto fit = std::lower_bound(kept.begin(), kept.end(), size); fit != kept.end()) {
      kept.erase(fit);
    } else if (size > 0) {
      wanted.push_back(size);
      wanted_bytes += size;
    }
  }
  // Smallest first: within the bound, that spares the most snapshots a
  // fresh buffer.
  std::uint64_t budget =
      std::min({wanted_bytes > bytes_in_flight_ ? wanted_bytes - bytes_in_flight_ : 0,
                memory_bound_ - std::min(memory_bound_, bytes_in_flight_ + free_bytes_), cap});
  std::size_t n = 0;
  for (; n < wanted.size() && wanted[n] <= budget; ++n) budget -= wanted[n];
  wanted.resize(n);
  if (wanted.empty()) return;
  try {
    preparer_.prepare(wanted);
  } catch (const std::bad_alloc&) {
    preparer_.cancel();  // nothing was faulted in yet
  }
}

void SnapshotPipeline::keep_prepared_locked(std::vector<std::vector<std::byte>> buffers) {
  for (auto& b : buffers) {
    const std::uint64_t capacity = b.capacity();
    if (bytes_in_flight_ + preparer_.pending_bytes() + free_bytes_ + capacity > memory_bound_) {
      continue;
    }
    free_bytes_ += capacity;
    free_buffers_.push_back(std::move(b));
  }
}

std::uint64_t SnapshotPipeline::prepared_bytes() const {
  std::lock_guard lock(mutex_);
  return preparer_.pending_bytes();
}

std::size_t SnapshotPipeline::prepared_ready() const {
  std::lock_guard lock(mutex_);
  return preparer_.ready_count();
}

SnapshotPipeline::BlobSlot SnapshotPipeline::snapshot(std::vector<std::byte> bytes) {
  return snapshot(std::move(bytes), {});
}

SnapshotPipeline::BlobSlot SnapshotPipeline::snapshot_copy(std::span<const std::byte> bytes) {
  std::vector<std::byte> copy = buffer(bytes.size());
  if (!bytes.empty()) std::memcpy(copy.data(), bytes.data(), bytes.size());
  return snapshot(std::move(copy));
}

SnapshotPipeline::BlobSlot SnapshotPipeline::snapshot_in_place(std::span<const std::byte> bytes) {
  // Memory never touched is zeros, known without reading it (which would
  // make the program's first writes to it copy-on-write faults).
  const std::vector<bool> zero = untouched_chunks(bytes.data(), bytes.size(), writer_.chunk_size());
  auto slot = std::make_shared<trace::BlobRef>(writer_.put_blob(bytes, zero));
  std::lock_guard lock(mutex_);
  bytes_captured_ += bytes.size();
  return slot;
}

SnapshotPipeline::BlobSlot SnapshotPipeline::snapshot(std::vector<std::byte> bytes,
                                                      std::function<void()> arrived) {
  auto slot = std::make_shared<trace::BlobRef>();
  const std::uint64_t size = bytes.size();
  std::unique_lock lock(mutex_);
  space_ready_.wait(lock, [&] { return has_room_locked(size); });
  bytes_in_flight_ += size;
  bytes_captured_ += size;
  ++items_in_flight_;
  queue_.push_back(Item{std::move(bytes), slot, {}, std::move(arrived)});
  lock.unlock();
  work_ready_.notify_one();
  return slot;
}

void SnapshotPipeline::run(Task task) {
  {
    std::lock_guard lock(mutex_);
    ++items_in_flight_;
    queue_.push_back(Item{{}, nullptr, std::move(task), {}});
  }
  work_ready_.notify_one();
}

void SnapshotPipeline::drain() {
  {
    std::unique_lock lock(mutex_);
    // Nothing more to prepare for: the program is done or being ended.
    keep_prepared_locked(preparer_.cancel());
    space_ready_.wait(lock, [&] { return items_in_flight_ == 0; });
  }
  writer_.wait_for_loans();
}

void SnapshotPipeline::give_back(std::vector<std::byte> bytes) noexcept {
  try {
    std::lock_guard lock(mutex_);
    recycle_locked(std::move(bytes));
  } catch (...) {
    // Not kept for reuse: the memory goes back to the system instead.
  }
  space_ready_.notify_all();
  // A worker waiting with nothing kept starts the kept buffers' idle time.
  work_ready_.notify_all();
}

std::string SnapshotPipeline::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

std::uint64_t SnapshotPipeline::bytes_captured() const {
  std::lock_guard lock(mutex_);
  return bytes_captured_;
}

std::uint64_t SnapshotPipeline::kept_bytes() const {
  std::lock_guard lock(mutex_);
  return free_bytes_;
}

void SnapshotPipeline::show_progress(std::uint64_t left) {
  if (!progress_) return;
  static auto last = std::chrono::steady_clock::time_point{};
  const auto now = std::chrono::steady_clock::now();
  if (left == 0) {
    if (progress_shown_) std::fprintf(stderr, "\r\033[K");
    progress_shown_ = false;
    return;
  }
  if (left < (64ull << 20) || now - last < std::chrono::milliseconds(200)) return;
  last = now;
  progress_shown_ = true;
  std::fprintf(stderr, "\rmsprof-record: writing snapshots, %llu MiB to go\033[K",
               static_cast<unsigned long long>(left >> 20));
}

void SnapshotPipeline::run_worker() {
  name_this_thread("msprof-snapshot");
  for (;;) {
    Item item;
    std::uint64_t left = 0;
    std::vector<std::vector<std::byte>> released;
    {
      std::unique_lock lock(mutex_);
      // Kept buffers are memory the program does not see as its own: they
      // go back once snapshots stop coming for a while.
      const auto ready = [&] { return stopping_ || !queue_.empty(); };
      if (!range_prepared_) {
        // Before the first range, kept buffers were prepared for it
        // (buffer_created): held until it starts, however long the
        // program takes to get there, not faulted in again and again.
        work_ready_.wait(lock, [&] { return ready() || range_prepared_; });
        if (!ready()) continue;
      } else if (free_buffers_.empty() && preparer_.pending_bytes() == 0) {
        // Woken too by prepare(), whose buffers then start their idle time.
        work_ready_.wait(lock, [&] {
          return ready() || !free_buffers_.empty() || preparer_.pending_bytes() > 0;
        });
        if (!ready()) continue;
      } else if (!work_ready_.wait_for(lock, kKeepIdleBuffers, ready)) {
        released.swap(free_buffers_);
        free_bytes_ = 0;
        for (auto& b : preparer_.cancel()) released.push_back(std::move(b));
        lock.unlock();
        released.clear();
        continue;
      }
      if (queue_.empty()) return;
      item = std::move(queue_.front());
      queue_.pop_front();
      left = bytes_in_flight_;
    }
    show_progress(left);
    bool lent = false;
    try {
      if (item.slot) {
        if (item.arrived) item.arrived();
        // Lent, not copied: the writer's workers read the buffer in place
        // and give it back (and its bytes stop counting) once coded.
        auto held = std::make_shared<std::vector<std::byte>>(std::move(item.bytes));
        lent = true;
        *item.slot = writer_.lend_blob(*held, [this, held] { give_back(std::move(*held)); });
      } else if (item.task) {
        item.task(writer_);
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      if (error_.empty()) error_ = e.what();
    }
    {
      std::lock_guard lock(mutex_);
      if (!lent) recycle_locked(std::move(item.bytes));
      --items_in_flight_;
      left = bytes_in_flight_;
    }
    if (left == 0) show_progress(0);
    space_ready_.notify_all();
  }
}

}  // namespace msprof::record
