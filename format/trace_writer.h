#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_set>
#include <vector>

#include "format/chunk_pipeline.h"
#include "format/file_sink.h"
#include "format/trace_error.h"
#include "format/trace_record.h"
#include "format/zstd_codec.h"

namespace msprof::trace {

class TraceWriter;

// Receives one blob in pieces, so a buffer of any size goes to the trace
// with at most a chunk of it held here. Use from one thread.
class BlobBuilder {
 public:
  void append(std::span<const std::byte> data);
  // The blob under its key (blob_key of its chunks).
  BlobRef finish();
  // The blob under a key the caller names it by: a copy of a blob from
  // another trace keeps the key that trace's records use, whichever way
  // that trace made it (msprof-analyze verify --repair).
  BlobRef finish_as(const Hash128& key);

 private:
  friend class TraceWriter;
  explicit BlobBuilder(TraceWriter& writer);
  void flush_chunk();

  TraceWriter* writer_;
  std::vector<std::byte> chunk_;
  BlobManifest manifest_;
};

// Writes a trace file: metadata records and content-addressed blobs.
// Thread-safe: records and blobs may come from several threads at once.
//
// Ordering guarantee: a Range or Program record is written only once every
// blob finished before it is in the file, so a trace cut short by a crash
// never holds a record whose data is missing.
class TraceWriter {
 public:
  struct Options {
    // Level 1 with the shuffle filter: as small as level 3 on float32 data,
    // and faster (bench/README.md, shuffle_bench).
    int compression_level = 1;
    // A blob chunk is stored compressed only when that saves at least this
    // share of it, in percent, at most kMaxMinSavingPercent (0: when it
    // saves 1/32 of it, 3%).
    unsigned min_saving_percent = 0;
    unsigned workers = 2;
    std::uint64_t memory_bound = 24ull << 20;  // chunk bytes in flight
    std::uint64_t chunk_size = 4ull << 20;
  };
  struct Stats {
    std::uint64_t blob_bytes = 0;  // as referenced, before dedup
    std::uint64_t unique_chunk_bytes = 0;
    std::uint64_t stored_chunk_bytes = 0;
    std::uint64_t chunks_deduplicated = 0;
    std::uint64_t file_bytes = 0;
  };

  TraceWriter(const std::filesystem::path& path, Options options);
  explicit TraceWriter(const std::filesystem::path& path) : TraceWriter(path, Options{}) {}
  // Closes the trace when close() was not called; errors are dropped here, so
  // call close() to see them.
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void write(const Record& record);
  // Copies the chunks the trace does not hold yet; the others are only
  // hashed, so `data` may be a device buffer's mapping read in place.
  BlobRef put_blob(std::span<const std::byte> data);
  // put_blob where the caller knows, without reading them, that some whole
  // chunks (of Options::chunk_size) hold zeros: chunk i when zero_chunks[i]
  // (memory the process never touched). Those bytes are not read at all.
  BlobRef put_blob(std::span<const std::byte> data, const std::vector<bool>& zero_chunks);
  // put_blob without the copy: the workers read `data` in place, so it must
  // stay unchanged until `release` runs. That is once, on any thread, when
  // no chunk needs the bytes any more (at the latest when flush() or close()
  // returns; before lend_blob returns when nothing was queued, and also when
  // lend_blob throws). `release` must not throw.
  BlobRef lend_blob(std::span<const std::byte> data, std::function<void()> release);
  BlobBuilder begin_blob() { return BlobBuilder(*this); }
  // Waits until no lent bytes are held, for their owner about to go away;
  // unlike flush() it may be called after close().
  void wait_for_loans();
  // Everything handed over so far is in the file (not necessarily on disk).
  void flush();
  // Writes the index and trailer. The writer is unusable afterwards.
  void close();
  Stats stats() const;
  std::uint64_t chunk_size() const { return options_.chunk_size; }

 private:
  friend class BlobBuilder;
  template <typename Submit>
  BlobRef store_blob(std::span<const std::byte> data, Submit submit);
  void submit_chunk(std::vector<std::byte> chunk, const ChunkRef& ref);
  void submit_lent_chunk(std::span<const std::byte> chunk, const ChunkRef& ref,
                         const std::shared_ptr<LentBytes>& loan);
  // Claims the chunk when the trace already holds it; false (nothing done)
  // when it does not.
  bool claim_if_held(const ChunkRef& ref);
  const Hash128& zero_chunk_hash();
  // Stats and dedup of one chunk; false when it is a duplicate.
  bool claim_chunk_locked(const ChunkRef& ref);
  void finish_blob(BlobManifest manifest);
  void write_record_now(const Record& record);
  void flush_locked();
  void check_open() const;

  Options options_;
  FileSink sink_;
  ChunkPipeline pipeline_;
  mutable std::mutex mutex_;
  ZstdCompressor record_compressor_;
  std::unordered_set<Hash128, Hash128Hasher> chunks_seen_;
  std::unordered_set<Hash128, Hash128Hasher> blobs_seen_;
  std::vector<BlobManifest> pending_manifests_;  // written once their chunks are
  std::once_flag zero_chunk_once_;
  Hash128 zero_chunk_hash_;
  Stats stats_;
  bool closed_ = false;
};

}  // namespace msprof::trace
