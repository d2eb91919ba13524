#include "format/file_sink.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "format/trace_error.h"

namespace msprof::trace {
namespace {

constexpr std::uint64_t kWriteBehindWindow = 32ull << 20;

}  // namespace

FileSink::FileSink(const std::filesystem::path& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw IoError("cannot create trace " + path.string() + ": " + std::strerror(errno) +
                  "; choose a writable path");
  }
  const auto header = encode_file_header();
  end_ = header.size();
  write_at(0, header, {});
}

FileSink::~FileSink() {
  if (fd_ >= 0) ::close(fd_);
}

void FileSink::write_at(std::uint64_t offset, std::span<const std::byte> a,
                        std::span<const std::byte> b) {
  iovec iov[2] = {{const_cast<std::byte*>(a.data()), a.size()},
                  {const_cast<std::byte*>(b.data()), b.size()}};
  int count = b.empty() ? 1 : 2;
  iovec* next = iov;
  while (count > 0) {
    const ssize_t n = ::pwritev(fd_, next, count, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw IoError("cannot write trace " + path_.string() + ": " + std::strerror(errno), offset);
    }
    if (n == 0) throw IoError("cannot write trace " + path_.string() + ": no progress", offset);
    offset += static_cast<std::uint64_t>(n);
    std::size_t left = static_cast<std::size_t>(n);
    while (count > 0 && left >= next->iov_len) {
      left -= next->iov_len;
      ++next;
      --count;
    }
    if (count > 0) {
      next->iov_base = static_cast<char*>(next->iov_base) + left;
      next->iov_len -= left;
    }
  }
}

void FileSink::write_behind(std::uint64_t end) {
  // Another thread doing it is as good: no writer waits for this.
  std::unique_lock lock(behind_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  // Start the write of the newer window, wait for the older one and drop
  // it: the disk stays busy while the page cache holds two windows at most.
  // Advice only: a file system without it (tmpfs) just keeps its pages.
  while (end >= behind_ + 2 * kWriteBehindWindow) {
    const auto older = static_cast<off_t>(behind_);
    const auto window = static_cast<off_t>(kWriteBehindWindow);
    ::sync_file_range(fd_, older + window, window, SYNC_FILE_RANGE_WRITE);
    ::sync_file_range(
        fd_, older, window,
        SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
    ::posix_fadvise(fd_, older, window, POSIX_FADV_DONTNEED);
    behind_ += kWriteBehindWindow;
  }
}

std::uint64_t FileSink::append_frame(const FrameHeader& header,
                                     std::span<const std::byte> payload) {
  const auto head = encode_frame_header(header);
  const std::uint64_t offset = end_.fetch_add(header.frame_size());
  write_at(offset, head, payload);
  write_behind(offset + header.frame_size());
  std::lock_guard lock(index_mutex_);
  index_.push_back({offset, header.frame_size(), header.raw_size, header.key, header.type});
  return offset;
}

std::vector<IndexEntry> FileSink::index_snapshot() const {
  std::lock_guard lock(index_mutex_);
  return index_;
}

void FileSink::finish() {
  auto entries = index_snapshot();
  std::sort(entries.begin(), entries.end(),
            [](const IndexEntry& a, const IndexEntry& b) { return a.offset < b.offset; });
  const auto payload = encode_index(entries);
  FrameHeader header;
  header.type = static_cast<std::uint16_t>(FrameType::Index);
  header.stored_size = payload.size();
  header.raw_size = payload.size();
  header.payload_hash = hash64(payload);
  const std::uint64_t index_offset = end_.fetch_add(header.frame_size());
  write_at(index_offset, encode_frame_header(header), payload);
  const std::uint64_t trailer_offset = end_.fetch_add(kTrailerSize);
  write_at(trailer_offset, encode_trailer({index_offset, header.frame_size(), trailer_offset}), {});
}

}  // namespace msprof::trace
