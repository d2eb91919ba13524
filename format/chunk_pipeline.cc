#include "format/chunk_pipeline.h"

#include "format/frame.h"
#include "format/trace_error.h"

namespace msprof::trace {

ChunkPipeline::ChunkPipeline(FileSink& sink, unsigned workers, int level,
                             std::uint64_t memory_bound)
    : sink_(sink), level_(level), memory_bound_(memory_bound) {
  for (unsigned i = 0; i < workers; ++i) workers_.emplace_back([this] { run_worker(); });
}

ChunkPipeline::~ChunkPipeline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (auto& t : workers_) t.join();
}

void ChunkPipeline::rethrow_locked() {
  if (error_) std::rethrow_exception(error_);
}

void ChunkPipeline::write_chunk(ZstdCompressor& compressor, const Job& job) {
  FrameHeader header;
  header.type = static_cast<std::uint16_t>(FrameType::BlobChunk);
  header.raw_size = job.data.size();
  header.key = job.key;
  header.flags = kFrameFlagContentKeyed;
  std::span<const std::byte> payload = job.data;
  if (const auto compressed = compressor.compress(job.data)) {
    header.flags |= kFrameFlagZstd;
    payload = *compressed;
  }
  header.stored_size = payload.size();
  sink_.append_frame(header, payload);
  std::lock_guard lock(mutex_);
  stats_.raw_bytes += job.data.size();
  stats_.stored_bytes += header.frame_size();
  stats_.chunks += 1;
}

void ChunkPipeline::submit(const Hash128& key, std::vector<std::byte> data) {
  if (workers_.empty()) {
    {
      std::lock_guard lock(mutex_);
      rethrow_locked();
    }
    ZstdCompressor compressor(level_);
    Job job{key, std::move(data)};
    write_chunk(compressor, job);
    recycle(std::move(job.data));
    return;
  }
  std::unique_lock lock(mutex_);
  const std::uint64_t size = data.size();
  // A chunk larger than the bound still goes through, alone.
  space_ready_.wait(lock, [&] {
    return error_ || bytes_in_flight_ == 0 || bytes_in_flight_ + size <= memory_bound_;
  });
  rethrow_locked();
  bytes_in_flight_ += size;
  queue_.push_back(Job{key, std::move(data)});
  lock.unlock();
  work_ready_.notify_one();
}

void ChunkPipeline::drain() {
  std::unique_lock lock(mutex_);
  space_ready_.wait(lock, [&] { return error_ || bytes_in_flight_ == 0; });
  rethrow_locked();
}

std::vector<std::byte> ChunkPipeline::take_buffer() {
  std::lock_guard lock(mutex_);
  if (free_.empty()) return {};
  std::vector<std::byte> buffer = std::move(free_.back());
  free_.pop_back();
  return buffer;
}

void ChunkPipeline::recycle(std::vector<std::byte> buffer) {
  std::lock_guard lock(mutex_);
  recycle_locked(std::move(buffer));
}

void ChunkPipeline::recycle_locked(std::vector<std::byte> buffer) {
  // Enough to cover what may be in flight; beyond that memory goes back.
  if (free_.size() * buffer.capacity() >= memory_bound_ + buffer.capacity() * 2) return;
  buffer.clear();
  free_.push_back(std::move(buffer));
}

ChunkPipeline::Stats ChunkPipeline::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void ChunkPipeline::run_worker() {
  ZstdCompressor compressor(level_);
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    const std::uint64_t size = job.data.size();
    try {
      write_chunk(compressor, job);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    {
      std::lock_guard lock(mutex_);
      bytes_in_flight_ -= size;
      recycle_locked(std::move(job.data));
    }
    space_ready_.notify_all();
  }
}

}  // namespace msprof::trace
