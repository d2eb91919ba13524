#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "format/file_sink.h"
#include "format/frame.h"
#include "format/hash128.h"
#include "format/zstd_codec.h"

namespace msprof::trace {

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

  // workers == 0 compresses and writes on the caller's thread.
  ChunkPipeline(FileSink& sink, unsigned workers, int level, std::uint64_t memory_bound);
  ~ChunkPipeline();
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;

  void submit(const Hash128& key, std::vector<std::byte> data);
  // An empty buffer, with the capacity of one written before when there is
  // one: recycling spares the page faults of a fresh chunk-sized allocation.
  std::vector<std::byte> take_buffer();
  void recycle(std::vector<std::byte> buffer);
  // Waits until every submitted chunk is in the file; rethrows a worker's error.
  void drain();
  Stats stats() const;

 private:
  struct Job {
    Hash128 key;
    std::vector<std::byte> data;
  };
  struct Write {
    FrameHeader header;
    std::vector<std::byte> raw;         // the chunk, written as is when not compressed
    std::vector<std::byte> compressed;  // sized to the zstd bound; header says how much is used
  };
  void run_worker();
  void run_writer();
  // Compresses the chunk, byte-shuffled first where that pays; `shuffled`
  // is the worker's scratch, grown to a chunk when a chunk may be shuffled.
  Write compress(ZstdCompressor& compressor, Job job, std::vector<std::byte> out,
                 std::vector<std::byte>& shuffled);
  void write(const Write& w);
  std::vector<std::byte> take_output_locked(std::size_t raw_size);
  void recycle_locked(std::vector<std::byte> buffer);
  void fail_locked();

  FileSink& sink_;
  const int level_;
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
  std::vector<std::vector<std::byte>> free_, free_outputs_;
  std::vector<std::thread> workers_;
  std::thread writer_;
};

}  // namespace msprof::trace
