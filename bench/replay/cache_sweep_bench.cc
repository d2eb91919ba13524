// cache_sweep_bench: how much host scratch the replayer's cache clear must
// read on a CPU device before a range's data is really out of the caches.
//
//   build/release/bench/replay/msprof_cache_sweep_bench [--cache-mib 32] [--probe-mib 16]
//
// A probe buffer is read (warm), then a HostCacheSweep of k times the
// last-level cache reads its scratch, then the probe is read again and timed.
// Once the sweep is large enough the re-read stops getting slower: that is
// the size the replayer needs (it uses 3x). Last, the probe's own lines are
// evicted (HostLineFlush, the replayer's way on a device in host memory):
// a re-read as slow as after the largest sweep means nothing was left.
#include <cstdio>
#include <thread>

#include <CLI/CLI.hpp>

#include "bench/format/timing.h"
#include "replayer/core/host/host_cache_sweep.h"
#include "replayer/core/host/host_line_flush.h"

namespace {

using msprof::bench::Timing;
using msprof::bench::wall_seconds;
using msprof::replay::HostCacheSweep;
using msprof::replay::HostLineFlush;

double timed_clear(HostCacheSweep& sweep) {
  const double t0 = wall_seconds();
  sweep.clear();
  return wall_seconds() - t0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("How large a host sweep clears the caches for a CPU device");
  unsigned cache_mib = 32, probe_mib = 16, threads = std::thread::hardware_concurrency();
  int repetitions = 41;
  app.add_option("--cache-mib", cache_mib, "last-level cache size, MiB (as the device reports it)")
      ->check(CLI::Range(1u, 4096u));
  app.add_option("--probe-mib", probe_mib, "size of the range data read again, MiB")
      ->check(CLI::Range(1u, 4096u));
  app.add_option("--threads", threads, "sweeping threads (default: the CPUs online)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--repetitions", repetitions, "runs of each measurement")
      ->check(CLI::Range(3, 1000));
  CLI11_PARSE(app, argc, argv);
  try {
    HostCacheSweep probe(std::uint64_t{probe_mib} << 20, threads);
    std::printf(
        "cache_sweep_bench: %u MiB probe re-read after sweeps of k x a %u MiB cache, %u "
        "threads, medians of %d runs (best in brackets)\n\n"
        "| sweep | sweep ms | probe re-read ms |\n|---|---:|---:|\n",
        probe_mib, cache_mib, threads, repetitions);
    Timing warm;
    for (int r = 0; r < repetitions; ++r) {
      probe.clear();
      warm.seconds.push_back(timed_clear(probe));
    }
    std::printf("| none (warm) | | %.3f (%.3f) |\n", warm.median() * 1e3, warm.best() * 1e3);
    for (const double k : {1.0, 1.5, 2.0, 3.0, 4.0}) {
      HostCacheSweep sweep(static_cast<std::uint64_t>(k * (std::uint64_t{cache_mib} << 20)),
                           threads);
      Timing swept, reread;
      for (int r = 0; r < repetitions; ++r) {
        probe.clear();
        swept.seconds.push_back(timed_clear(sweep));
        reread.seconds.push_back(timed_clear(probe));
      }
      std::printf("| %.1fx (%.0f MiB) | %.2f (%.2f) | %.3f (%.3f) |\n", k, k * cache_mib,
                  swept.median() * 1e3, swept.best() * 1e3, reread.median() * 1e3,
                  reread.best() * 1e3);
    }
    HostLineFlush flush;
    flush.add(probe.memory());
    Timing flushed, reread;
    for (int r = 0; r < repetitions; ++r) {
      probe.clear();
      const double t0 = wall_seconds();
      flush.clear();
      flushed.seconds.push_back(wall_seconds() - t0);
      reread.seconds.push_back(timed_clear(probe));
    }
    std::printf("| probe's lines evicted (%u MiB) | %.2f (%.2f) | %.3f (%.3f) |\n", probe_mib,
                flushed.median() * 1e3, flushed.best() * 1e3, reread.median() * 1e3,
                reread.best() * 1e3);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cache_sweep_bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
