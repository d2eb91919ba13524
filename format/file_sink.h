#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <span>
#include <vector>

#include "format/frame.h"
#include "format/record_codec.h"

namespace msprof::trace {

// Appends frames to a trace file from several threads: each frame gets its
// place by an atomic reservation and is written with one positioned write, so
// workers never wait for each other's I/O. Keeps the index of what was written.
class FileSink {
 public:
  explicit FileSink(const std::filesystem::path& path);  // creates or truncates; IoError
  ~FileSink();
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;

  // Writes header + payload; returns the frame's offset. Throws IoError.
  std::uint64_t append_frame(const FrameHeader& header, std::span<const std::byte> payload);
  // Writes the index frame and the trailer, last.
  void finish();
  std::uint64_t bytes_written() const { return end_.load(); }
  std::vector<IndexEntry> index_snapshot() const;

 private:
  void write_at(std::uint64_t offset, std::span<const std::byte> a, std::span<const std::byte> b);

  std::filesystem::path path_;
  int fd_ = -1;
  std::atomic<std::uint64_t> end_{0};
  mutable std::mutex index_mutex_;
  std::vector<IndexEntry> index_;
};

}  // namespace msprof::trace
