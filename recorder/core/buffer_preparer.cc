#include "recorder/core/buffer_preparer.h"

#include <algorithm>

#include <pthread.h>
#include <sched.h>

#include "thread_name/thread_name.h"

namespace msprof::record {
namespace {

// Faulted in this much at a time: a cancelled batch or a stopping pipeline
// waits at most this long for the thread.
constexpr std::size_t kStep = 256u << 10;

}  // namespace

BufferPreparer::BufferPreparer(Priority priority) {
  thread_ = std::thread([this, priority] { run(priority); });
}

BufferPreparer::~BufferPreparer() {
  stopping_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_one();
  thread_.join();
  // Every batch, handed over or not, is the caller's now.
}

std::vector<std::vector<std::byte>> BufferPreparer::prepare(
    const std::vector<std::uint64_t>& sizes) {
  auto returned = cancel();
  if (sizes.empty()) return returned;
  auto batch = std::make_unique<Batch>();
  batch->sizes = sizes;
  batch->buffers.resize(sizes.size());
  // Reserved here, not on the thread: the allocator takes locks the
  // program's threads take too.
  for (std::size_t i = 0; i < sizes.size(); ++i) batch->buffers[i].reserve(sizes[i]);
  batch_ = std::move(batch);
  taken_.assign(sizes.size(), false);
  for (const std::uint64_t size : sizes) pending_bytes_ += size;
  handed_.store(batch_.get(), std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_one();
  return returned;
}

std::optional<std::vector<std::byte>> BufferPreparer::take(std::size_t size) {
  if (!batch_) return std::nullopt;
  const std::size_t done = batch_->done.load(std::memory_order_acquire);
  std::size_t best = done;
  for (std::size_t i = 0; i < done; ++i) {
    if (taken_[i] || batch_->sizes[i] < size) continue;
    if (best == done || batch_->sizes[i] < batch_->sizes[best]) best = i;
  }
  if (best == done) return std::nullopt;
  taken_[best] = true;
  pending_bytes_ -= batch_->sizes[best];
  return std::move(batch_->buffers[best]);
}

std::size_t BufferPreparer::ready_count() const {
  if (!batch_) return 0;
  const std::size_t done = batch_->done.load(std::memory_order_acquire);
  return static_cast<std::size_t>(std::count(taken_.begin(), taken_.begin() + done, false));
}

std::vector<std::vector<std::byte>> BufferPreparer::cancel() {
  bury();
  std::vector<std::vector<std::byte>> ready;
  if (!batch_) return ready;
  batch_->cancelled.store(true, std::memory_order_relaxed);
  const std::size_t done = batch_->done.load(std::memory_order_acquire);
  for (std::size_t i = 0; i < done; ++i) {
    if (!taken_[i]) ready.push_back(std::move(batch_->buffers[i]));
  }
  // Not picked up yet: the thread never sees it and it can go now.
  Batch* expected = batch_.get();
  if (!handed_.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel)) {
    retired_.push_back(std::move(batch_));
  }
  batch_.reset();
  taken_.clear();
  pending_bytes_ = 0;
  return ready;
}

void BufferPreparer::bury() {
  std::erase_if(retired_, [](const std::unique_ptr<Batch>& b) {
    return b->released.load(std::memory_order_acquire);
  });
}

void BufferPreparer::run(Priority priority) {
  name_this_thread("msprof-prepare");
  if (priority == Priority::Idle) {
    // Best effort: where the policy is refused the thread runs as any other.
    const sched_param param{};
    ::pthread_setschedparam(::pthread_self(), SCHED_IDLE, &param);
  }
  for (;;) {
    const std::uint32_t seen = generation_.load(std::memory_order_acquire);
    if (stopping_.load(std::memory_order_acquire)) return;
    Batch* const batch = handed_.exchange(nullptr, std::memory_order_acq_rel);
    if (batch == nullptr) {
      generation_.wait(seen, std::memory_order_acquire);
      continue;
    }
    for (std::size_t i = 0; i < batch->buffers.size(); ++i) {
      auto& buffer = batch->buffers[i];
      const std::size_t size = batch->sizes[i];
      // Written, not just mapped: the zeros are what the program's thread
      // would otherwise write, page fault by page fault. The capacity was
      // reserved, so resizing never allocates here.
      while (buffer.size() < size) {
        if (batch->cancelled.load(std::memory_order_relaxed) ||
            stopping_.load(std::memory_order_relaxed)) {
          break;
        }
        buffer.resize(std::min(size, buffer.size() + kStep));
      }
      if (buffer.size() < size) break;
      batch->done.store(i + 1, std::memory_order_release);
    }
    batch->released.store(true, std::memory_order_release);
  }
}

}  // namespace msprof::record
