#include "format/trace_reader.h"

#include <algorithm>
#include <cstring>

#include "format/byte_shuffle.h"
#include "format/plane_codec.h"
#include "format/trace_error.h"
#include "format/trace_version.h"
#include "format/zstd_codec.h"

namespace msprof::trace {
namespace {

constexpr std::size_t kScanWindow = 1 << 20;

std::uint64_t max_raw_size(std::uint16_t type) {
  return type == static_cast<std::uint16_t>(FrameType::BlobChunk) ? kMaxChunkSize
                                                                  : kMaxRecordRawSize;
}

}  // namespace

TraceReader::TraceReader(const std::filesystem::path& path, Warn warn)
    : source_(path), warn_(std::move(warn)) {
  std::array<std::byte, kFileHeaderSize> head{};
  if (source_.size() < kFileHeaderSize) {
    throw CorruptError("not an msprof-replay trace (" + path.string() + " is only " +
                       std::to_string(source_.size()) + " bytes); record one with msprof-record");
  }
  source_.read(0, head);
  file_header_ = decode_file_header(head);
  if (!open_by_index()) {
    recovered_ = true;
    open_by_scan();
  }
  check_schema_version();
}

void TraceReader::warn(const std::string& message) {
  warnings_.push_back(message);
  if (warn_) warn_(message);
}

std::optional<FrameHeader> TraceReader::header_at(std::uint64_t offset) const {
  if (offset > source_.size() || source_.size() - offset < kFrameHeaderSize) return std::nullopt;
  std::array<std::byte, kFrameHeaderSize> bytes{};
  source_.read(offset, bytes);
  return decode_frame_header(bytes);
}

void TraceReader::add_frame(const IndexEntry& entry) {
  if (!is_known_frame_type(entry.type)) {
    if (unknown_types_[entry.type]++ == 0) {
      warn("skipping frames of unknown type " + std::to_string(entry.type) +
           " (written by a newer msprof-record?)");
    }
    return;
  }
  if (entry.type == static_cast<std::uint16_t>(FrameType::Index)) return;
  frames_.push_back(entry);
  if (entry.type == static_cast<std::uint16_t>(FrameType::BlobChunk)) {
    chunks_.try_emplace(entry.key, entry);
  } else if (entry.type == static_cast<std::uint16_t>(FrameType::BlobManifest)) {
    manifests_.try_emplace(entry.key, entry);
  } else {
    records_.push_back(entry);
  }
}

bool TraceReader::open_by_index() {
  const std::uint64_t size = source_.size();
  if (size < kFileHeaderSize + kFrameHeaderSize + kTrailerSize) {
    warn("trace has no index (the recording did not finish); recovering by a scan");
    return false;
  }
  std::array<std::byte, kTrailerSize> tail{};
  source_.read(size - kTrailerSize, tail);
  const auto trailer = decode_trailer(tail);
  if (!trailer || trailer->trailer_offset != size - kTrailerSize ||
      trailer->index_offset < kFileHeaderSize || trailer->index_frame_size < kFrameHeaderSize ||
      trailer->index_offset > trailer->trailer_offset ||
      trailer->index_frame_size != trailer->trailer_offset - trailer->index_offset) {
    warn(
        "trace has no usable trailer (the recording did not finish or the file is damaged); "
        "recovering by a scan");
    return false;
  }
  // The trailer's copy of the container version is under a checksum; the
  // file header's is not, so a difference is damage to the file header.
  if (trailer->container_version != file_header_.container_version) {
    throw CorruptError("the file header is damaged: it says container version " +
                           std::to_string(file_header_.container_version) + ", the trailer says " +
                           std::to_string(trailer->container_version),
                       8);
  }
  const auto header = header_at(trailer->index_offset);
  if (!header || header->type != static_cast<std::uint16_t>(FrameType::Index) ||
      header->frame_size() != trailer->index_frame_size || header->flags != 0) {
    warn("trace index is damaged; recovering by a scan");
    return false;
  }
  std::vector<IndexEntry> entries;
  try {
    IndexEntry self{
        trailer->index_offset, header->frame_size(), header->raw_size, {}, header->type};
    entries = decode_index(read_payload(self), trailer->index_offset);
  } catch (const TraceError& e) {
    warn(std::string("trace index is damaged (") + e.what() + "); recovering by a scan");
    return false;
  }
  std::sort(entries.begin(), entries.end(),
            [](const IndexEntry& a, const IndexEntry& b) { return a.offset < b.offset; });
  std::uint64_t end = kFileHeaderSize;
  for (const auto& e : entries) {
    if (e.offset < end || e.frame_size < kFrameHeaderSize ||
        e.frame_size > trailer->index_offset - e.offset || e.raw_size > max_raw_size(e.type)) {
      warn("trace index names impossible frame positions; recovering by a scan");
      return false;
    }
    end = e.offset + e.frame_size;
  }
  for (const auto& e : entries) add_frame(e);
  return true;
}

std::uint64_t TraceReader::resync(std::uint64_t from) const {
  const std::uint64_t size = source_.size();
  std::vector<std::byte> window;
  for (std::uint64_t base = from; base < size;) {
    const std::uint64_t n = std::min<std::uint64_t>(kScanWindow, size - base);
    window.resize(n);
    source_.read(base, window);
    for (std::uint64_t i = 0; i + 4 <= n; ++i) {
      std::uint32_t word;
      std::memcpy(&word, window.data() + i, 4);
      if (word == kFrameSync && header_at(base + i)) return base + i;
      if (std::memcmp(window.data() + i, kTrailerMagic.data(), 4) == 0 &&
          base + i + kTrailerSize == size) {
        return base + i;
      }
    }
    if (base + n >= size) break;
    base += n - 3;  // a sync word may straddle two windows
  }
  return size;
}

void TraceReader::open_by_scan() {
  const std::uint64_t size = source_.size();
  std::uint64_t pos = kFileHeaderSize;
  while (pos < size) {
    const auto header = header_at(pos);
    if (!header) {
      if (size - pos == kTrailerSize) {
        std::array<std::byte, kTrailerSize> tail{};
        source_.read(pos, tail);
        if (decode_trailer(tail)) break;
      }
      const std::uint64_t next = resync(pos + 1);
      if (next >= size) {
        warn("dropping " + std::to_string(size - pos) + " bytes at offset " + std::to_string(pos) +
             " that hold no whole frame (a torn last write)");
        break;
      }
      warn("skipping " + std::to_string(next - pos) + " damaged bytes at offset " +
           std::to_string(pos));
      pos = next;
      continue;
    }
    if (header->stored_size > size - pos - kFrameHeaderSize) {
      warn("dropping the torn last frame at offset " + std::to_string(pos));
      break;
    }
    const IndexEntry entry{pos, header->frame_size(), header->raw_size, header->key, header->type};
    if (is_known_frame_type(header->type) &&
        header->type != static_cast<std::uint16_t>(FrameType::Index)) {
      try {
        check_stored(entry, *header);
      } catch (const TraceError& e) {
        warn(std::string("skipping a damaged frame: ") + e.what());
        pos += header->frame_size();
        continue;
      }
    }
    add_frame(entry);
    pos += header->frame_size();
  }
}

void TraceReader::check_schema_version() {
  for (const auto& entry : records_) {
    if (entry.type != static_cast<std::uint16_t>(FrameType::TraceInfo)) continue;
    TraceInfo info;
    try {
      info = std::get<TraceInfo>(read_record(entry));
    } catch (const CorruptError&) {
      return;  // reported when the caller asks for it
    }
    if (info.min_reader_version > kSchemaVersion) {
      throw UnsupportedVersionError(
          "trace schema version " + std::to_string(info.schema_version) +
              " needs a reader of version " + std::to_string(info.min_reader_version) +
              "; this reader is version " + std::to_string(kSchemaVersion) +
              " (update msprof-replay and msprof-analyze)",
          entry.offset);
    }
    return;
  }
}

void TraceReader::check_stored(const IndexEntry& entry, const FrameHeader& header) const {
  // Payloads are stored compressed only when that is smaller, so a stored
  // size above the raw size is damage; both are bounded before allocating.
  if (header.raw_size > max_raw_size(header.type) || header.stored_size > header.raw_size) {
    throw CorruptError(
        "frame claims " + std::to_string(header.raw_size) + " bytes, more than allowed",
        entry.offset);
  }
  // A content-keyed frame has no payload checksum: its content is checked.
  if ((header.flags & kFrameFlagContentKeyed) != 0) {
    read_payload(entry);
    return;
  }
  std::vector<std::byte> stored(header.stored_size);
  source_.read(entry.offset + kFrameHeaderSize, stored);
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  if (hash64(stored) != header.payload_hash) {
    throw CorruptError(std::string(frame_type_name(header.type)) + " frame fails its checksum",
                       entry.offset);
  }
#endif
}

std::vector<std::byte> TraceReader::read_payload(const IndexEntry& entry) const {
  const auto header = header_at(entry.offset);
  if (!header) throw CorruptError("damaged frame header", entry.offset);
  if (header->type != entry.type || header->frame_size() != entry.frame_size ||
      header->key != entry.key) {
    throw CorruptError("frame does not match the index", entry.offset);
  }
  if (header->stored_size > source_.size() - entry.offset - kFrameHeaderSize) {
    throw TruncatedError("frame runs past the end of the trace", entry.offset);
  }
  if (header->raw_size > max_raw_size(header->type) || header->stored_size > header->raw_size) {
    throw CorruptError(
        "frame claims " + std::to_string(header->raw_size) + " bytes, more than allowed",
        entry.offset);
  }
  const bool compressed = (header->flags & kFrameFlagZstd) != 0;
  const bool keyed = (header->flags & kFrameFlagContentKeyed) != 0;
  const bool shuffled = (header->flags & kFrameFlagShuffle4) != 0;
  const bool by_plane = (header->flags & kFrameFlagPlanes) != 0;
  const bool chunk = header->type == static_cast<std::uint16_t>(FrameType::BlobChunk);
  if ((header->flags &
       ~(kFrameFlagZstd | kFrameFlagContentKeyed | kFrameFlagShuffle4 | kFrameFlagPlanes)) != 0 ||
      (keyed && !chunk) || (!compressed && header->raw_size != header->stored_size) ||
      (shuffled && (!chunk || !compressed || header->raw_size % 4 != 0)) ||
      (by_plane && !shuffled)) {
    throw CorruptError("frame header is inconsistent", entry.offset);
  }
  std::vector<std::byte> stored(header->stored_size);
  source_.read(entry.offset + kFrameHeaderSize, stored);
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  if (!keyed && hash64(stored) != header->payload_hash) {
    throw CorruptError(std::string(frame_type_name(header->type)) + " frame fails its checksum",
                       entry.offset);
  }
#endif
  // One context per reading thread: making one costs more than decoding a
  // small frame.
  thread_local ZstdDecompressor decompressor;
  std::vector<std::byte> raw;
  if (by_plane) {
    raw = decode_planes(decompressor, stored, header->raw_size, entry.offset);
  } else if (compressed) {
    raw = decompressor.decompress(stored, header->raw_size, entry.offset);
  } else {
    raw = std::move(stored);
  }
  if (shuffled) {
    std::vector<std::byte> planes = std::move(raw);
    raw.resize(planes.size());
    unshuffle4(planes, raw);
  }
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  if (chunk && hash128(raw) != header->key) {
    throw CorruptError("blob chunk content does not match its hash", entry.offset);
  }
#endif
  return raw;
}

Record TraceReader::read_record(const IndexEntry& entry) const {
  if (!is_record_frame_type(entry.type)) throw CorruptError("frame is not a record", entry.offset);
  return decode_record(static_cast<FrameType>(entry.type), read_payload(entry), entry.offset);
}

TraceInfo TraceReader::info() const {
  for (auto it = records_.rbegin(); it != records_.rend(); ++it) {
    if (it->type == static_cast<std::uint16_t>(FrameType::TraceInfo)) {
      return std::get<TraceInfo>(read_record(*it));
    }
  }
  throw CorruptError("trace has no trace-info record");
}

bool TraceReader::has_blob(const BlobRef& ref) const {
  return manifests_.contains(ref.hash);
}

BlobManifest TraceReader::manifest(const BlobRef& ref) const {
  const auto it = manifests_.find(ref.hash);
  if (it == manifests_.end()) {
    throw CorruptError("blob " + ref.hash.hex() + " of " + std::to_string(ref.size) +
                       " bytes is not in the trace");
  }
  auto manifest = std::get<BlobManifest>(read_record(it->second));
  std::uint64_t total = 0;
  bool sane = manifest.hash == ref.hash && manifest.size == ref.size;
  for (const auto& c : manifest.chunks) {
    sane = sane && c.size <= kMaxChunkSize && c.size > 0 && chunks_.contains(c.hash);
    total += c.size;
  }
  if (!sane || total != manifest.size) {
    throw CorruptError("blob " + ref.hash.hex() + " has a damaged or incomplete chunk list",
                       it->second.offset);
  }
  return manifest;
}

void TraceReader::stream_blob(const BlobRef& ref,
                              const std::function<void(std::span<const std::byte>)>& sink) const {
  const BlobManifest m = manifest(ref);
  Hash128 cached_hash;
  std::vector<std::byte> cached;
  for (const auto& chunk : m.chunks) {
    if (cached.empty() || cached_hash != chunk.hash) {
      cached = read_chunk(chunk);
      cached_hash = chunk.hash;
    }
    sink(cached);
  }
}

std::vector<std::byte> TraceReader::read_chunk(const ChunkRef& chunk) const {
  const auto it = chunks_.find(chunk.hash);
  if (it == chunks_.end())
    throw CorruptError("blob chunk " + chunk.hash.hex() + " is not in the trace");
  // read_payload checked the content against the chunk's hash.
  auto bytes = read_payload(it->second);
  if (bytes.size() != chunk.size) {
    throw CorruptError("blob chunk size does not match its reference", it->second.offset);
  }
  return bytes;
}

std::uint64_t TraceReader::chunk_stored_bytes(const ChunkRef& chunk) const {
  const auto it = chunks_.find(chunk.hash);
  if (it == chunks_.end())
    throw CorruptError("blob chunk " + chunk.hash.hex() + " is not in the trace");
  return it->second.frame_size;
}

void TraceReader::read_blob(const BlobRef& ref, std::span<std::byte> out) const {
  if (out.size() != ref.size) {
    throw TraceError("buffer of " + std::to_string(out.size()) + " bytes for a blob of " +
                     std::to_string(ref.size));
  }
  std::size_t at = 0;
  stream_blob(ref, [&](std::span<const std::byte> piece) {
    std::memcpy(out.data() + at, piece.data(), piece.size());
    at += piece.size();
  });
}

std::vector<std::byte> TraceReader::read_blob(const BlobRef& ref) const {
  std::vector<std::byte> out(manifest(ref).size);
  read_blob(ref, out);
  return out;
}

}  // namespace msprof::trace
