#include "bench/format/throughput_bench.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zstd.h>

#include "bench/format/thread_times.h"
#include "format/byte_shuffle.h"
#include "format/hash128.h"
#include "format/trace_reader.h"
#include "format/trace_writer.h"

namespace msprof::bench {
namespace {

using trace::BlobRef;
using trace::TraceReader;
using trace::TraceWriter;

// Written once before timing so page faults are not measured as copying.
std::vector<std::byte> touched_buffer(std::size_t size) {
  std::vector<std::byte> out(size);
  std::memset(out.data(), 1, out.size());
  return out;
}

long thread_minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_minflt;
}

// Measures one run of `body` on the calling thread and its helpers (which
// must still exist when `body` returns) and keeps the profile of the best.
class RunMeter {
 public:
  explicit RunMeter(ThroughputRow& row) : row_(row) {
    caller0_ = calling_thread_times();
    faults0_ = thread_minor_faults();
    others0_ = other_threads_times();
    by_name0_ = other_threads_by_name();
    cpu0_ = process_cpu_seconds();
    t0_ = wall_seconds();
  }
  // Call at the end of the run, before helper threads exit.
  void stop(double caller_wall_s = 0) {
    const double wall = wall_seconds() - t0_;
    const ThreadTimes caller = calling_thread_times(), others = other_threads_times();
    const bool best = row_.timing.seconds.empty() || wall < row_.timing.best();
    row_.timing.seconds.push_back(wall);
    if (!best) return;
    RunProfile& p = row_.profile;
    p.caller_wall_s = caller_wall_s;
    p.caller_cpu_s = caller.cpu_s - caller0_.cpu_s;
    p.caller_page_faults = thread_minor_faults() - faults0_;
    p.worker_cpu_s = others.cpu_s - others0_.cpu_s;
    p.wait_s = caller.wait_s - caller0_.wait_s + others.wait_s - others0_.wait_s;
    p.cores_busy = (process_cpu_seconds() - cpu0_) / wall;
    p.thread_cpu_s.clear();
    for (const auto& [name, t] : other_threads_by_name()) {
      const auto before = by_name0_.find(name);
      const double before_s = before == by_name0_.end() ? 0.0 : before->second.cpu_s;
      p.thread_cpu_s[name] = t.cpu_s - before_s;
    }
  }
  double elapsed() const { return wall_seconds() - t0_; }

 private:
  ThroughputRow& row_;
  ThreadTimes caller0_, others0_;
  std::map<std::string, ThreadTimes> by_name0_;
  long faults0_ = 0;
  double cpu0_ = 0, t0_ = 0;
};

// zstd on its own, one context per thread, each thread taking every
// threads-th chunk: the ceiling for the writer with as many workers. With
// `shuffle`, every chunk is byte-shuffled first (always; the writer decides
// per chunk on a sample): the writer's own compression without the writer.
class ZstdAlone {
 public:
  ZstdAlone(const ThroughputConfig& config, unsigned threads, bool shuffle = false)
      : config_(config), shuffle_(shuffle) {
    for (unsigned i = 0; i < threads; ++i) {
      contexts_.push_back(ZSTD_createCCtx());
      if (contexts_.back() == nullptr) throw std::runtime_error("out of memory for a zstd context");
      outputs_.push_back(touched_buffer(ZSTD_compressBound(config.chunk_size)));
      planes_.push_back(touched_buffer(shuffle ? config.chunk_size : 0));
    }
  }
  ~ZstdAlone() {
    for (ZSTD_CCtx* cctx : contexts_) ZSTD_freeCCtx(cctx);
  }
  ZstdAlone(const ZstdAlone&) = delete;
  ZstdAlone& operator=(const ZstdAlone&) = delete;

  void run(std::span<const std::byte> data, ThroughputRow& row) {
    const std::size_t threads = contexts_.size();
    std::vector<std::uint64_t> stored(threads, 0);
    std::vector<std::thread> helpers;
    RunMeter meter(row);
    for (std::size_t t = 1; t < threads; ++t) {
      helpers.emplace_back([&, t] { stored[t] = compress_share(data, t); });
    }
    stored[0] = compress_share(data, 0);
    for (auto& h : helpers) h.join();
    meter.stop();
    std::uint64_t total = 0;
    for (std::uint64_t s : stored) total += s;
    row.stored_ratio = static_cast<double>(total) / static_cast<double>(data.size());
  }

 private:
  std::uint64_t compress_share(std::span<const std::byte> data, std::size_t t) {
    std::uint64_t stored = 0;
    const std::size_t step = config_.chunk_size * contexts_.size();
    for (std::size_t at = t * config_.chunk_size; at < data.size(); at += step) {
      const std::size_t n = std::min<std::size_t>(config_.chunk_size, data.size() - at);
      const std::byte* in = data.data() + at;
      if (shuffle_ && n % 4 == 0) {
        trace::shuffle4(data.subspan(at, n), std::span(planes_[t]).first(n));
        in = planes_[t].data();
      }
      const std::size_t z = ZSTD_compressCCtx(contexts_[t], outputs_[t].data(), outputs_[t].size(),
                                              in, n, config_.compression_level);
      if (ZSTD_isError(z)) throw std::runtime_error(ZSTD_getErrorName(z));
      stored += std::min(z, n);  // the writer stores a chunk raw when zstd does not shrink it
    }
    return stored;
  }

  const ThroughputConfig& config_;
  const bool shuffle_;
  std::vector<ZSTD_CCtx*> contexts_;
  std::vector<std::vector<std::byte>> outputs_, planes_;
};

void run_pwrite(std::span<const std::byte> data, const ThroughputConfig& config,
                const std::filesystem::path& path, ThroughputRow& row) {
  std::filesystem::remove(path);
  RunMeter meter(row);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + path.string());
  for (std::size_t at = 0; at < data.size(); at += config.chunk_size) {
    const std::size_t n = std::min<std::size_t>(config.chunk_size, data.size() - at);
    if (::pwrite(fd, data.data() + at, n, static_cast<off_t>(at)) != static_cast<ssize_t>(n)) {
      ::close(fd);
      throw std::runtime_error("cannot write " + path.string());
    }
  }
  ::close(fd);
  meter.stop();
  std::filesystem::remove(path);
}

// put_blob copies the bytes into chunks on the caller's thread; lend_blob
// has the workers read them in place.
BlobRef run_writer(std::span<const std::byte> data, const ThroughputConfig& config,
                   unsigned workers, bool lend, const std::filesystem::path& path,
                   ThroughputRow& row) {
  TraceWriter::Options options;
  options.workers = workers;
  options.compression_level = config.compression_level;
  options.chunk_size = config.chunk_size;
  std::filesystem::remove(path);
  RunMeter meter(row);
  TraceWriter writer(path, options);
  const BlobRef ref = lend ? writer.lend_blob(data, [] {}) : writer.put_blob(data);
  const double put_blob_s = meter.elapsed();
  writer.close();
  meter.stop(put_blob_s);
  if (row.timing.seconds.back() == row.timing.best()) {
    row.stored_ratio =
        static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(data.size());
  }
  return ref;
}

void run_read(std::span<const std::byte> data, const BlobRef& ref,
              const std::filesystem::path& path, std::span<std::byte> out, ThroughputRow& row) {
  RunMeter meter(row);
  const TraceReader reader(path);
  reader.read_blob(ref, out);
  meter.stop();
  if (std::memcmp(out.data(), data.data(), data.size()) != 0) {
    throw std::runtime_error("the blob read back differs from what was written");
  }
}

}  // namespace

ThroughputReport measure_throughput(std::span<const std::byte> data,
                                    const ThroughputConfig& config) {
  ThroughputReport r;
  r.bytes = data.size();
  std::vector<std::byte> out = touched_buffer(data.size());
  ZstdAlone zstd(config, 1), zstd2(config, 2), shuffled(config, 1, true);
  const std::filesystem::path path = config.dir / "format-bench-throughput.trace";
  for (int i = 0; i < config.repetitions; ++i) {
    {
      RunMeter meter(r.memcpy_row);
      std::memcpy(out.data(), data.data(), data.size());
      meter.stop();
    }
    {
      RunMeter meter(r.hash_row);
      const trace::Hash128 h = trace::hash128(data);
      meter.stop();
      if (h == trace::Hash128{}) throw std::runtime_error("zero hash");
    }
    run_pwrite(data, config, path, r.pwrite_row);
    zstd.run(data, r.zstd_row);
    zstd2.run(data, r.zstd2_row);
    shuffled.run(data, r.shuffled_row);
    run_writer(data, config, 1, false, path, r.writer1_row);
    run_writer(data, config, 2, false, path, r.writer2_row);
    run_writer(data, config, 1, true, path, r.lent1_row);
    const BlobRef ref = run_writer(data, config, 2, true, path, r.lent2_row);
    run_read(data, ref, path, out, r.read_row);
  }
  std::filesystem::remove(path);
  return r;
}

}  // namespace msprof::bench
