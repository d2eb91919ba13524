#include "replayer/core/restore/trace_restorer.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

namespace msprof::replay {

TraceRestorer::TraceRestorer(const trace::TraceReader& reader, unsigned threads,
                             std::uint64_t bytes_per_thread)
    : reader_(reader),
      threads_(std::max(1u, threads)),
      bytes_per_thread_(std::max<std::uint64_t>(1, bytes_per_thread)) {}

void TraceRestorer::add(trace::CaptureId buffer, const trace::BlobRef& blob) {
  std::uint64_t offset = 0;
  for (const auto& chunk : reader_.manifest(blob).chunks) {
    pieces_.push_back({buffer, offset, chunk});
    offset += chunk.size;
  }
  bytes_ += blob.size;
}

void TraceRestorer::restore_share(std::size_t begin, std::size_t end, const Sink& sink) const {
  // A run of equal chunks (a constant region) is read once.
  trace::Hash128 held_hash;
  std::vector<std::byte> held;
  for (std::size_t i = begin; i < end; ++i) {
    const Piece& p = pieces_[i];
    if (held.empty() || held_hash != p.chunk.hash) {
      held = reader_.read_chunk(p.chunk);
      held_hash = p.chunk.hash;
    }
    sink(p.buffer, p.offset, held);
  }
}

void TraceRestorer::restore(const Sink& sink) const {
  const std::size_t n = pieces_.size();
  const unsigned threads = static_cast<unsigned>(std::min<std::uint64_t>(
      {threads_, n, std::max<std::uint64_t>(1, bytes_ / bytes_per_thread_)}));
  if (threads <= 1) {
    restore_share(0, n, sink);
    return;
  }
  // Contiguous shares, so that a thread's run of equal chunks stays whole.
  std::mutex failed_mutex;
  std::exception_ptr failed;
  std::vector<std::thread> workers;
  workers.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
    workers.emplace_back([&, begin, end] {
      try {
        restore_share(begin, end, sink);
      } catch (...) {
        const std::lock_guard lock(failed_mutex);
        if (!failed) failed = std::current_exception();
      }
    });
  }
  for (auto& w : workers) w.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace msprof::replay
