#include "replayer/core/host/host_cache_sweep.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include <sys/mman.h>

#include "replayer/core/replay_error.h"

namespace msprof::replay {
namespace {

// Keeps the sums alive: a sweep whose result nobody reads would be removed.
std::atomic<std::uint64_t> sweep_sink{0};

// Four independent sums, so the loads are not serialized by one add chain.
std::uint64_t sum_words(const std::uint64_t* words, std::size_t count) {
  std::uint64_t a = 0, b = 0, c = 0, d = 0;
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    a += words[i];
    b += words[i + 1];
    c += words[i + 2];
    d += words[i + 3];
  }
  for (; i < count; ++i) a += words[i];
  return a + b + c + d;
}

std::string mib(std::uint64_t bytes) {
  return std::to_string((bytes + (1u << 19)) >> 20) + " MiB";
}

}  // namespace

HostCacheSweep::HostCacheSweep(std::uint64_t bytes, unsigned threads)
    : bytes_(std::max<std::uint64_t>(bytes / 8 * 8, 4096)), threads_(std::max(threads, 1u)) {
  // MAP_POPULATE: the pages arrive zeroed and resident in one call, a third
  // cheaper than faulting them in one by one.
  scratch_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (scratch_ == MAP_FAILED) {
    scratch_ = nullptr;
    throw DeviceError("cannot allocate the " + mib(bytes_) + " cache-clearing buffer (" +
                      std::strerror(errno) +
                      "); use --cache-size with a smaller size or --cache-control none");
  }
}

HostCacheSweep::~HostCacheSweep() {
  if (scratch_ != nullptr) ::munmap(scratch_, bytes_);
}

void HostCacheSweep::clear() {
  const auto* words = static_cast<const std::uint64_t*>(scratch_);
  const std::size_t count = bytes_ / 8;
  const std::size_t per_thread = (count + threads_ - 1) / threads_;
  auto sweep = [&](unsigned t) {
    const std::size_t begin = std::min(count, t * per_thread);
    const std::size_t end = std::min(count, begin + per_thread);
    sweep_sink.fetch_add(sum_words(words + begin, end - begin), std::memory_order_relaxed);
  };
  // Threads made per sweep, not kept: nothing of ours waits or spins next
  // to the kernels of a pass.
  std::vector<std::thread> helpers;
  helpers.reserve(threads_ - 1);
  for (unsigned t = 1; t < threads_; ++t) helpers.emplace_back(sweep, t);
  sweep(0);
  for (auto& h : helpers) h.join();
}

std::string HostCacheSweep::method() const {
  return "read " + mib(bytes_) + " from " + std::to_string(threads_) + " host thread" +
         (threads_ == 1 ? "" : "s") + " (the device shares the host's caches)";
}

}  // namespace msprof::replay
