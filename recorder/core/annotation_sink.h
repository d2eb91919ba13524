#pragma once

#include <cstdint>
#include <string_view>

namespace msprof::record {

// What the annotation front ends (mstx, NVTX) report to the recorder. Called
// from the application's threads; implementations are thread-safe and never
// throw (they sit behind C entry points).
class AnnotationSink {
 public:
  virtual ~AnnotationSink() = default;

  // Returns the range id the program will pass to range_end; 0 = failure.
  // `domain` is empty for the default domain. `stream` is the stream argument
  // as an integer (0 = host only).
  virtual std::uint64_t range_start(std::string_view domain, std::string_view message,
                                    std::uint64_t stream) noexcept = 0;
  virtual void range_end(std::string_view domain, std::uint64_t id) noexcept = 0;
  virtual void mark(std::string_view domain, std::string_view message,
                    std::uint64_t stream) noexcept = 0;
};

// The process's sink. The recorder's core defines it; a test build of the
// injection library may define its own.
AnnotationSink& annotation_sink() noexcept;

}  // namespace msprof::record
