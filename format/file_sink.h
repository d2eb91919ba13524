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
  // Hands what is written to the disk and out of the page cache, a window
  // behind the end: a trace is written once and read later, and gigabytes
  // of it left in the page cache push out the recorded program's own data
  // (and, in a VM, cost a fresh host page for every page written).
  void write_behind(std::uint64_t end);

  std::filesystem::path path_;
  int fd_ = -1;
  std::atomic<std::uint64_t> end_{0};
  std::mutex behind_mutex_;
  std::uint64_t behind_ = 0;  // below this, handed to the disk and dropped
  mutable std::mutex index_mutex_;
  std::vector<IndexEntry> index_;
};

}  // namespace msprof::trace
