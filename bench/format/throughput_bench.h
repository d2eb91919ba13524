#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <utility>

#include "bench/format/timing.h"
#include "format/trace_writer.h"

namespace msprof::bench {

struct ThroughputConfig {
  std::filesystem::path dir;  // where the traces are written (and removed)
  int repetitions = 3;
  int compression_level = trace::TraceWriter::Options{}.compression_level;
  std::uint64_t chunk_size = 4ull << 20;
};

// Where a run's time went (its best run), to explain its throughput.
struct RunProfile {
  double caller_wall_s = 0;  // writers: in put_blob or lend_blob; the rest is close()
  double caller_cpu_s = 0;
  long caller_page_faults = 0;                 // minor faults of the calling thread
  double worker_cpu_s = 0;                     // writers' worker threads
  double wait_s = 0;                           // all threads: runnable but waiting for a CPU
  double cores_busy = 0;                       // process CPU / wall
  std::map<std::string, double> thread_cpu_s;  // helper threads' CPU by thread name
};

struct ThroughputRow {
  explicit ThroughputRow(std::string name) : what(std::move(name)) {}
  std::string what;
  Timing timing;
  RunProfile profile;
  double stored_ratio = 0;  // stored bytes / raw bytes; 0 where not applicable
};

struct ThroughputReport {
  std::uint64_t bytes = 0;
  ThroughputRow memcpy_row{"memcpy"}, hash_row{"XXH3-128 of the bytes"},
      pwrite_row{"pwrite to the page cache, 4 MiB calls"}, zstd_row{"zstd alone (1 thread)"},
      zstd2_row{"zstd alone (2 threads)"},
      shuffled_row{"byte shuffle + zstd alone (1 thread), the writer's filter"},
      writer1_row{"1-worker TraceWriter, put_blob"}, writer2_row{"2-worker TraceWriter, put_blob"},
      lent1_row{"1-worker TraceWriter, lend_blob (the recorder's)"},
      lent2_row{"2-worker TraceWriter, lend_blob (the recorder's)"},
      read_row{"TraceReader::read_blob"};
};

// Measures everything in one run on the same bytes, so the figures compare;
// the repetitions are interleaved, so a burst of other work on the machine
// slows one round of every measurement rather than all runs of one.
ThroughputReport measure_throughput(std::span<const std::byte> data,
                                    const ThroughputConfig& config);

}  // namespace msprof::bench
