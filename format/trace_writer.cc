#include "format/trace_writer.h"

#include <algorithm>

#include "format/frame.h"
#include "format/record_codec.h"
#include "format/trace_error.h"

namespace msprof::trace {
namespace {

// Records this small are stored raw: zstd would not pay for its frame.
constexpr std::size_t kMinCompressedRecord = 256;

Hash128 key_of(const BlobManifest& manifest) {
  std::vector<Hash128> keys;
  keys.reserve(manifest.chunks.size());
  for (const ChunkRef& chunk : manifest.chunks) keys.push_back(chunk.hash);
  return blob_key(keys);
}

}  // namespace

BlobBuilder::BlobBuilder(TraceWriter& writer) : writer_(&writer) {
  manifest_.chunk_size = writer.options_.chunk_size;
}

void BlobBuilder::append(std::span<const std::byte> data) {
  manifest_.size += data.size();
  const std::size_t chunk_size = writer_->options_.chunk_size;
  while (!data.empty()) {
    if (chunk_.capacity() == 0) chunk_ = writer_->pipeline_.take_buffer();
    if (chunk_.capacity() < chunk_size) chunk_.reserve(chunk_size);
    const std::size_t take = std::min(data.size(), chunk_size - chunk_.size());
    chunk_.insert(chunk_.end(), data.begin(), data.begin() + static_cast<std::ptrdiff_t>(take));
    data = data.subspan(take);
    if (chunk_.size() == chunk_size) flush_chunk();
  }
}

void BlobBuilder::flush_chunk() {
  const ChunkRef ref{hash128(chunk_), chunk_.size()};
  writer_->submit_chunk(std::move(chunk_), ref);
  manifest_.chunks.push_back(ref);
  chunk_ = {};
}

BlobRef BlobBuilder::finish() {
  if (!chunk_.empty()) flush_chunk();
  return finish_as(key_of(manifest_));
}

BlobRef BlobBuilder::finish_as(const Hash128& key) {
  if (!chunk_.empty()) flush_chunk();
  manifest_.hash = key;
  const BlobRef ref{manifest_.hash, manifest_.size};
  writer_->finish_blob(std::move(manifest_));
  manifest_ = {};
  return ref;
}

TraceWriter::TraceWriter(const std::filesystem::path& path, Options options)
    : options_(options),
      sink_(path),
      pipeline_(sink_, options.workers, options.compression_level, options.min_saving_percent,
                options.memory_bound),
      record_compressor_(options.compression_level) {
  if (options_.chunk_size == 0 || options_.chunk_size > kMaxChunkSize) {
    throw TraceError("chunk size must be between 1 byte and " +
                     std::to_string(kMaxChunkSize >> 20) + " MiB");
  }
}

TraceWriter::~TraceWriter() {
  try {
    close();
  } catch (...) {
    // Destructors must not throw; what was written stays readable by a scan.
  }
}

void TraceWriter::check_open() const {
  if (closed_) throw TraceError("trace writer used after close()");
}

bool TraceWriter::claim_chunk_locked(const ChunkRef& ref) {
  check_open();
  stats_.blob_bytes += ref.size;
  if (!chunks_seen_.insert(ref.hash).second) {
    stats_.chunks_deduplicated += 1;
    return false;
  }
  stats_.unique_chunk_bytes += ref.size;
  return true;
}

// Submitting under the lock keeps "seen" and "queued" one step, so a flush
// never misses a chunk another thread has claimed. Blocking here on the
// memory bound holds other writers back, which is what the bound is for.
void TraceWriter::submit_chunk(std::vector<std::byte> chunk, const ChunkRef& ref) {
  std::lock_guard lock(mutex_);
  if (!claim_chunk_locked(ref)) {
    pipeline_.recycle(std::move(chunk));
    return;
  }
  pipeline_.submit(ref.hash, std::move(chunk));
}

void TraceWriter::submit_lent_chunk(std::span<const std::byte> chunk, const ChunkRef& ref,
                                    const std::shared_ptr<LentBytes>& loan) {
  std::lock_guard lock(mutex_);
  if (claim_chunk_locked(ref)) pipeline_.submit_lent(ref.hash, chunk, loan);
}

void TraceWriter::finish_blob(BlobManifest manifest) {
  std::lock_guard lock(mutex_);
  check_open();
  if (!blobs_seen_.insert(manifest.hash).second) return;
  pending_manifests_.push_back(std::move(manifest));
}

// The blob's manifest, chunk by chunk; `submit` hands chunk `index` over
// and says what it is. Every byte read is hashed once, as part of its chunk
// (blob_key).
template <typename Submit>
BlobRef TraceWriter::store_blob(std::span<const std::byte> data, Submit submit) {
  BlobManifest manifest;
  manifest.chunk_size = options_.chunk_size;
  manifest.size = data.size();
  std::size_t index = 0;
  for (std::size_t at = 0; at < data.size(); at += options_.chunk_size, ++index) {
    const auto chunk = data.subspan(at, std::min(options_.chunk_size, data.size() - at));
    manifest.chunks.push_back(submit(index, chunk));
  }
  manifest.hash = key_of(manifest);
  const BlobRef ref{manifest.hash, manifest.size};
  finish_blob(std::move(manifest));
  return ref;
}

BlobRef TraceWriter::put_blob(std::span<const std::byte> data) {
  return put_blob(data, {});
}

BlobRef TraceWriter::put_blob(std::span<const std::byte> data,
                              const std::vector<bool>& zero_chunks) {
  return store_blob(data, [&](std::size_t index, std::span<const std::byte> chunk) {
    const bool zero =
        index < zero_chunks.size() && zero_chunks[index] && chunk.size() == options_.chunk_size;
    const ChunkRef ref{zero ? zero_chunk_hash() : hash128(chunk), chunk.size()};
    // A chunk the trace holds is not copied: a blob of zeros or of repeated
    // data costs its hashing alone. Seen chunks stay seen, so the check needs
    // no lock held up to the submit (which checks again).
    if (claim_if_held(ref)) return ref;
    std::vector<std::byte> copy = pipeline_.take_buffer();
    if (zero) {
      copy.assign(chunk.size(), std::byte{0});
    } else {
      copy.assign(chunk.begin(), chunk.end());
    }
    submit_chunk(std::move(copy), ref);
    return ref;
  });
}

const Hash128& TraceWriter::zero_chunk_hash() {
  std::call_once(zero_chunk_once_, [this] {
    zero_chunk_hash_ = hash128(std::vector<std::byte>(options_.chunk_size));
  });
  return zero_chunk_hash_;
}

BlobRef TraceWriter::lend_blob(std::span<const std::byte> data, std::function<void()> release) {
  const auto loan = std::make_shared<LentBytes>(std::move(release));
  return store_blob(data, [&](std::size_t, std::span<const std::byte> chunk) {
    const ChunkRef ref{hash128(chunk), chunk.size()};
    submit_lent_chunk(chunk, ref, loan);
    return ref;
  });
}

bool TraceWriter::claim_if_held(const ChunkRef& ref) {
  std::lock_guard lock(mutex_);
  if (!chunks_seen_.contains(ref.hash)) return false;
  claim_chunk_locked(ref);  // counted as a duplicate
  return true;
}

void TraceWriter::wait_for_loans() {
  pipeline_.settle();
}

void TraceWriter::write_record_now(const Record& record) {
  const EncodedRecord encoded = encode_record(record);
  FrameHeader header;
  header.type = static_cast<std::uint16_t>(encoded.type);
  header.raw_size = encoded.bytes.size();
  if (const auto* manifest = std::get_if<BlobManifest>(&record)) header.key = manifest->hash;
  std::span<const std::byte> payload = encoded.bytes;
  if (encoded.bytes.size() >= kMinCompressedRecord) {
    if (const auto compressed = record_compressor_.compress(encoded.bytes)) {
      header.flags = kFrameFlagZstd;
      payload = *compressed;
    }
  }
  header.stored_size = payload.size();
  header.payload_hash = hash64(payload);
  sink_.append_frame(header, payload);
}

void TraceWriter::flush_locked() {
  pipeline_.drain();
  for (const auto& manifest : pending_manifests_) write_record_now(manifest);
  pending_manifests_.clear();
}

void TraceWriter::write(const Record& record) {
  std::lock_guard lock(mutex_);
  check_open();
  const bool durable =
      std::holds_alternative<Range>(record) || std::holds_alternative<Program>(record);
  if (durable) flush_locked();
  write_record_now(record);
  // A range in the file outlives a crash of the program from here on.
  if (durable) sink_.flush();
}

void TraceWriter::flush() {
  std::lock_guard lock(mutex_);
  check_open();
  flush_locked();
  sink_.flush();
}

void TraceWriter::close() {
  std::lock_guard lock(mutex_);
  if (closed_) return;
  closed_ = true;
  flush_locked();
  sink_.finish();
}

TraceWriter::Stats TraceWriter::stats() const {
  std::lock_guard lock(mutex_);
  Stats s = stats_;
  s.stored_chunk_bytes = pipeline_.stats().stored_bytes;
  s.file_bytes = sink_.bytes_written();
  return s;
}

}  // namespace msprof::trace
