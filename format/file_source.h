#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace msprof::trace {

// Positioned, thread-safe reads of a trace file of fixed size.
class FileSource {
 public:
  explicit FileSource(const std::filesystem::path& path);  // IoError
  ~FileSource();
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::uint64_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }
  // Reads exactly out.size() bytes at offset; TruncatedError past the end.
  void read(std::uint64_t offset, std::span<std::byte> out) const;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace msprof::trace
