#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace msprof::trace {

// Every failure of the format library is one of these, so a CLI can catch
// TraceError once and print a single line. Offsets name where in the file the
// problem was found, when it was found in a file.
class TraceError : public std::runtime_error {
 public:
  TraceError(const std::string& what, std::optional<std::uint64_t> offset = std::nullopt);
  std::optional<std::uint64_t> offset() const { return offset_; }

 private:
  std::optional<std::uint64_t> offset_;
};

// The bytes are there but wrong: bad magic, checksum, schema, reference.
class CorruptError : public TraceError {
 public:
  using TraceError::TraceError;
};

// The file ends before something it announces.
class TruncatedError : public TraceError {
 public:
  using TraceError::TraceError;
};

// Written by a newer (or unknown) version of the format than this reader.
class UnsupportedVersionError : public TraceError {
 public:
  using TraceError::TraceError;
};

// The operating system refused a read or write (missing file, disk full, ...).
class IoError : public TraceError {
 public:
  using TraceError::TraceError;
};

}  // namespace msprof::trace
