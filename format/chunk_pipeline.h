#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "format/file_sink.h"
#include "format/frame.h"
#include "format/hash128.h"
#include "format/trace_objects.h"
#include "format/zstd_codec.h"

namespace msprof::trace {

// Bytes a caller lent the writer instead of handing over a copy. `release`
// runs once, when the last chunk read from them no longer needs them (coded,
// or written when stored raw), on whichever thread that is. It must not
// throw: it runs in a destructor.
class LentBytes {
 public:
  explicit LentBytes(std::function<void()> release) : release_(std::move(release)) {}
  ~LentBytes() {
    if (release_) release_();
  }
  LentBytes(const LentBytes&) = delete;
  LentBytes& operator=(const LentBytes&) = delete;

 private:
  std::function<void()> release_;
};

// Compresses blob chunks on worker threads and writes them on an I/O
// thread, so compression never waits for the file. The bytes handed over
// and not yet written are bounded: submit() blocks only when that bound
// would be passed, so the caller never waits for compression otherwise.
class ChunkPipeline {
 public:
  struct Stats {
    std::uint64_t raw_bytes = 0;
    std::uint64_t stored_bytes = 0;
    std::uint64_t chunks = 0;
  };

  // workers == 0 compresses and writes on the caller's thread. A chunk is
  // stored compressed only when that saves at least `min_saving_percent`
  // of it, at most kMaxMinSavingPercent (0: when it saves 1/32 of it, 3%).
  ChunkPipeline(FileSink& sink, unsigned workers, int level, unsigned min_saving_percent,
                std::uint64_t memory_bound);
  ~ChunkPipeline();
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;

  void submit(const Hash128& key, std::vector<std::byte> data);
  // A chunk read in place: `data` lies in bytes that `loan` keeps lent.
  void submit_lent(const Hash128& key, std::span<const std::byte> data,
                   std::shared_ptr<LentBytes> loan);
  // An empty buffer, with the capacity of one written before when there is
  // one: recycling spares the page faults of a fresh chunk-sized allocation.
  std::vector<std::byte> take_buffer();
  void recycle(std::vector<std::byte> buffer);
  // Waits until every submitted chunk is in the file; rethrows a worker's error.
  void drain();
  // Waits until no submitted chunk is left, written or dropped after an
  // error, so no lent bytes are held any more. Does not throw.
  void settle();
  Stats stats() const;

 private:
  struct Job {
    Hash128 key;
    std::vector<std::byte> data;      // a chunk handed over, or
    std::span<const std::byte> lent;  // one read in place while `loan` is held
    std::shared_ptr<LentBytes> loan;
    std::span<const std::byte> bytes() const { return loan ? lent : std::span(data); }
  };
  // Where a chunk is coded: not zero-filled, so a chunk stored raw faults
  // in only the pages its sample's trial touched, not the zstd bound's.
  struct OutputBuffer {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t size = 0;
    OutputBuffer() = default;
    OutputBuffer(std::unique_ptr<std::byte[]> b, std::size_t n) : bytes(std::move(b)), size(n) {}
    // A buffer moved from is empty, size included.
    OutputBuffer(OutputBuffer&& other) noexcept
        : bytes(std::move(other.bytes)), size(std::exchange(other.size, 0)) {}
    OutputBuffer& operator=(OutputBuffer&& other) noexcept {
      bytes = std::move(other.bytes);
      size = std::exchange(other.size, 0);
      return *this;
    }
    std::span<std::byte> span() const { return {bytes.get(), size}; }
  };
  struct Write {
    FrameHeader header;
    std::vector<std::byte> raw;       // the chunk handed over, written as is when not compressed
    std::span<const std::byte> lent;  // a lent chunk stored raw, written from the loan
    std::shared_ptr<LentBytes> loan;
    OutputBuffer compressed;  // sized to the zstd bound; header says how much is used
  };
  void enqueue(Job job);
  void run_worker();
  void run_writer();
  // Compresses the chunk, byte-shuffled first where that pays; `shuffled`
  // is the worker's scratch, grown to a chunk when a chunk may be shuffled.
  Write compress(ZstdCompressor& compressor, Job job, OutputBuffer out,
                 std::vector<std::byte>& shuffled);
  void write(const Write& w);
  OutputBuffer take_output_locked(std::size_t raw_size);
  void give_back_output_locked(OutputBuffer out);
  // As many as chunks can be coded or waiting to be written at once with
  // the default 24 MiB in flight and 4 MiB chunks, with room to spare.
  static constexpr std::size_t kOutputsKept = 8;
  void recycle_locked(std::vector<std::byte> buffer);
  void fail_locked();

  FileSink& sink_;
  const int level_;
  const unsigned min_saving_percent_;
  const std::uint64_t memory_bound_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_, write_ready_, space_ready_;
  std::deque<Job> queue_;
  std::deque<Write> writes_;
  std::uint64_t bytes_in_flight_ = 0;
  unsigned workers_running_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  Stats stats_;
  std::vector<std::vector<std::byte>> free_;
  std::vector<OutputBuffer> free_outputs_;
  std::vector<std::thread> workers_;
  std::thread writer_;
};

}  // namespace msprof::trace
