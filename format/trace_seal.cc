#include "format/trace_seal.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "format/frame.h"
#include "format/record_codec.h"
#include "format/trace_error.h"
#include "format/trace_reader.h"

namespace msprof::trace {
namespace {

void write_all(int fd, std::uint64_t offset, std::span<const std::byte> bytes,
               const std::filesystem::path& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw IoError("cannot seal trace " + path.string() + ": " + std::strerror(errno), offset);
    offset += static_cast<std::uint64_t>(n);
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

}  // namespace

SealResult seal_trace(const std::filesystem::path& path) {
  SealResult result;
  std::vector<IndexEntry> frames;
  std::uint64_t file_size = 0;
  {
    TraceReader reader(path);
    result.warnings = reader.warnings();
    file_size = reader.file_size();
    if (!reader.recovered()) {
      result.was_complete = true;
      result.frames = reader.frames().size();
      return result;
    }
    frames = reader.frames();
  }
  std::uint64_t end = kFileHeaderSize;
  for (const auto& f : frames) end = std::max(end, f.offset + f.frame_size);
  result.frames = frames.size();
  result.dropped_bytes = file_size - end;

  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw IoError("cannot seal trace " + path.string() + ": " + std::strerror(errno));
  try {
    if (::ftruncate(fd, static_cast<off_t>(end)) != 0) {
      throw IoError("cannot seal trace " + path.string() + ": " + std::strerror(errno));
    }
    const auto payload = encode_index(frames);
    FrameHeader header;
    header.type = static_cast<std::uint16_t>(FrameType::Index);
    header.stored_size = header.raw_size = payload.size();
    header.payload_hash = hash64(payload);
    const auto head = encode_frame_header(header);
    write_all(fd, end, head, path);
    write_all(fd, end + head.size(), payload, path);
    const std::uint64_t trailer_offset = end + header.frame_size();
    write_all(fd, trailer_offset, encode_trailer({end, header.frame_size(), trailer_offset}), path);
    if (::fsync(fd) != 0)
      throw IoError("cannot seal trace " + path.string() + ": " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return result;
}

}  // namespace msprof::trace
