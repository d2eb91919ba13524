#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/file_source.h"
#include "format/frame.h"
#include "format/record_codec.h"
#include "format/trace_error.h"
#include "format/trace_record.h"

namespace msprof::trace {

// Reads a trace. Opening costs the same whatever the trace's size: the file
// header, the trailer and the index. A trace without a usable trailer (the
// writer crashed or was killed) is opened by a linear scan that keeps every
// frame that arrived whole; `recovered()` then says so and `warnings()` why.
//
// Every frame's checksums and every FlatBuffer are verified before use. Bad
// content raises CorruptError / TruncatedError with the file offset. Reads are
// thread-safe.
class TraceReader {
 public:
  using Warn = std::function<void(const std::string&)>;

  explicit TraceReader(const std::filesystem::path& path, Warn warn = {});

  bool recovered() const { return recovered_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  std::uint64_t file_size() const { return source_.size(); }
  const std::filesystem::path& path() const { return source_.path(); }

  // Every known frame, in file order.
  const std::vector<IndexEntry>& frames() const { return frames_; }
  // Metadata records other than blob manifests, in file order.
  const std::vector<IndexEntry>& records() const { return records_; }

  Record read_record(const IndexEntry& entry) const;
  template <typename T>
  std::vector<T> read_all() const;
  // The last TraceInfo record (a later one supersedes an earlier one, e.g.
  // when more devices were seen); CorruptError when the trace has none.
  TraceInfo info() const;

  bool has_blob(const BlobRef& ref) const;
  BlobManifest manifest(const BlobRef& ref) const;  // CorruptError when missing
  // Delivers the blob chunk by chunk; memory use is one chunk.
  void stream_blob(const BlobRef& ref,
                   const std::function<void(std::span<const std::byte>)>& sink) const;
  void read_blob(const BlobRef& ref, std::span<std::byte> out) const;
  std::vector<std::byte> read_blob(const BlobRef& ref) const;
  // One chunk of a manifest, decompressed and checked against its hash:
  // for readers that spread a blob's chunks over threads.
  std::vector<std::byte> read_chunk(const ChunkRef& chunk) const;
  // The bytes a chunk takes in the file (its frame, header included): what
  // reading it again costs, next to chunk.size, what it decompresses to.
  std::uint64_t chunk_stored_bytes(const ChunkRef& chunk) const;

  // Decompressed, verified payload of any frame.
  std::vector<std::byte> read_payload(const IndexEntry& entry) const;

 private:
  void warn(const std::string& message);
  bool open_by_index();
  void open_by_scan();
  void add_frame(const IndexEntry& entry);
  void check_schema_version();
  std::optional<FrameHeader> header_at(std::uint64_t offset) const;
  // A scan checks what a frame stores without decompressing it.
  void check_stored(const IndexEntry& entry, const FrameHeader& header) const;
  std::uint64_t resync(std::uint64_t from) const;

  FileSource source_;
  Warn warn_;
  FileHeader file_header_;
  bool recovered_ = false;
  std::vector<std::string> warnings_;
  std::vector<IndexEntry> frames_;
  std::vector<IndexEntry> records_;
  std::unordered_map<Hash128, IndexEntry, Hash128Hasher> chunks_;
  std::unordered_map<Hash128, IndexEntry, Hash128Hasher> manifests_;
  std::map<std::uint16_t, int> unknown_types_;
};

template <typename T>
std::vector<T> TraceReader::read_all() const {
  std::vector<T> out;
  for (const auto& entry : records_) {
    if (entry.type != static_cast<std::uint16_t>(frame_type_of<T>())) continue;
    Record record = read_record(entry);
    if (auto* value = std::get_if<T>(&record)) out.push_back(std::move(*value));
  }
  return out;
}

}  // namespace msprof::trace
