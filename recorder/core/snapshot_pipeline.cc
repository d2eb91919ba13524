#include "recorder/core/snapshot_pipeline.h"

#include <chrono>
#include <cstdio>
#include <exception>

namespace msprof::record {

SnapshotPipeline::SnapshotPipeline(trace::TraceWriter& writer, std::uint64_t memory_bound,
                                   bool progress)
    : writer_(writer), memory_bound_(memory_bound), progress_(progress) {
  worker_ = std::thread([this] { run_worker(); });
}

SnapshotPipeline::~SnapshotPipeline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  worker_.join();
}

SnapshotPipeline::BlobSlot SnapshotPipeline::snapshot(std::vector<std::byte> bytes) {
  auto slot = std::make_shared<trace::BlobRef>();
  const std::uint64_t size = bytes.size();
  std::unique_lock lock(mutex_);
  space_ready_.wait(
      lock, [&] { return bytes_in_flight_ == 0 || bytes_in_flight_ + size <= memory_bound_; });
  bytes_in_flight_ += size;
  bytes_captured_ += size;
  ++items_in_flight_;
  queue_.push_back(Item{std::move(bytes), slot, {}});
  lock.unlock();
  work_ready_.notify_one();
  return slot;
}

void SnapshotPipeline::run(Task task) {
  {
    std::lock_guard lock(mutex_);
    ++items_in_flight_;
    queue_.push_back(Item{{}, nullptr, std::move(task)});
  }
  work_ready_.notify_one();
}

void SnapshotPipeline::drain() {
  std::unique_lock lock(mutex_);
  space_ready_.wait(lock, [&] { return items_in_flight_ == 0; });
}

std::string SnapshotPipeline::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

std::uint64_t SnapshotPipeline::bytes_captured() const {
  std::lock_guard lock(mutex_);
  return bytes_captured_;
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
  for (;;) {
    Item item;
    std::uint64_t left = 0;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      item = std::move(queue_.front());
      queue_.pop_front();
      left = bytes_in_flight_;
    }
    show_progress(left);
    const std::uint64_t size = item.bytes.size();
    try {
      if (item.slot) {
        *item.slot = writer_.put_blob(item.bytes);
      } else if (item.task) {
        item.task(writer_);
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      if (error_.empty()) error_ = e.what();
    }
    item.bytes = {};
    {
      std::lock_guard lock(mutex_);
      bytes_in_flight_ -= size;
      --items_in_flight_;
      left = bytes_in_flight_;
    }
    if (left == 0) show_progress(0);
    space_ready_.notify_all();
  }
}

}  // namespace msprof::record
