#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "format/trace_reader.h"

namespace msprof::replay {

// Puts buffers back into their initial state from the trace itself, chunk by
// chunk, over several threads: restoring a buffer this way holds no copy of
// it, only a chunk per thread, at the price of reading (and decompressing)
// its chunks again on every restore. Device neutral: the sink writes a piece
// wherever the device keeps the buffer.
class TraceRestorer {
 public:
  // Called from the restoring threads at once, for distinct pieces.
  using Sink = std::function<void(trace::CaptureId buffer, std::uint64_t offset,
                                  std::span<const std::byte> bytes)>;

  // Up to `threads` threads, one per bytes_per_thread restored at least:
  // starting a thread costs about what reading a small chunk does.
  TraceRestorer(const trace::TraceReader& reader, unsigned threads,
                std::uint64_t bytes_per_thread = 4ull << 20);

  void add(trace::CaptureId buffer, const trace::BlobRef& blob);
  bool empty() const { return pieces_.empty(); }
  std::uint64_t bytes() const { return bytes_; }

  // Every piece delivered once, or the first error rethrown after all
  // threads stopped.
  void restore(const Sink& sink) const;

 private:
  struct Piece {
    trace::CaptureId buffer;
    std::uint64_t offset;
    trace::ChunkRef chunk;
  };
  void restore_share(std::size_t begin, std::size_t end, const Sink& sink) const;

  const trace::TraceReader& reader_;
  unsigned threads_;
  std::uint64_t bytes_per_thread_;
  std::vector<Piece> pieces_;
  std::uint64_t bytes_ = 0;
};

}  // namespace msprof::replay
