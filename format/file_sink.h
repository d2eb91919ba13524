#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <span>
#include <vector>

#include "format/append_file.h"
#include "format/frame.h"
#include "format/record_codec.h"

namespace msprof::trace {

// Appends frames to a trace file from several threads, one whole frame at a
// time, and keeps the index of what was written.
class FileSink {
 public:
  explicit FileSink(const std::filesystem::path& path);  // creates or truncates; IoError
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;

  // Appends header + payload; returns the frame's offset. Throws IoError.
  std::uint64_t append_frame(const FrameHeader& header, std::span<const std::byte> payload);
  // Every frame appended so far is in the file, so it outlives the process.
  void flush();
  // Writes the index frame and the trailer, last, and flushes.
  void finish();
  std::uint64_t bytes_written() const;
  std::vector<IndexEntry> index_snapshot() const;

 private:
  mutable std::mutex mutex_;
  AppendFile file_;
  std::vector<IndexEntry> index_;
};

}  // namespace msprof::trace
