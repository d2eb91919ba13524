// format_bench: throughput of the trace writer and reader against zstd alone
// and memcpy on the same data, and the time to open a large trace. Prints
// Markdown tables. See README.md.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>
#include <CLI/CLI.hpp>

#include "bench/format/bench_data.h"
#include "bench/format/open_bench.h"
#include "bench/format/throughput_bench.h"
#include "format/trace_error.h"

namespace {

using namespace msprof::bench;

constexpr double kMiB = 1024.0 * 1024.0;

struct Dataset {
  std::string name;
  ThroughputReport report;
};

double mib_per_s(const ThroughputRow& row, std::uint64_t bytes, bool best) {
  return static_cast<double>(bytes) / kMiB / (best ? row.timing.best() : row.timing.median());
}

std::string fmt(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

void print_throughput(const std::vector<Dataset>& sets) {
  std::printf("| MiB/s, best (median) |");
  for (const auto& s : sets) std::printf(" %s |", s.name.c_str());
  std::printf("\n|---|");
  for (std::size_t i = 0; i < sets.size(); ++i) std::printf("---:|");
  std::printf("\n");
  const auto rows = [](const ThroughputReport& r) {
    return std::vector<const ThroughputRow*>{
        &r.memcpy_row,  &r.hash_row,    &r.pwrite_row, &r.zstd_row,  &r.zstd2_row, &r.shuffled_row,
        &r.writer1_row, &r.writer2_row, &r.lent1_row,  &r.lent2_row, &r.read_row};
  };
  const std::size_t n = rows(sets.front().report).size();
  for (std::size_t i = 0; i < n; ++i) {
    std::printf("| %s |", rows(sets.front().report)[i]->what.c_str());
    for (const auto& s : sets) {
      const ThroughputRow& row = *rows(s.report)[i];
      std::printf(" %.0f (%.0f) |", mib_per_s(row, s.report.bytes, true),
                  mib_per_s(row, s.report.bytes, false));
    }
    std::printf("\n");
  }
  std::printf("| stored / raw: zstd alone |");
  for (const auto& s : sets) std::printf(" %.3f |", s.report.zstd_row.stored_ratio);
  std::printf("\n| stored / raw: byte shuffle + zstd alone |");
  for (const auto& s : sets) std::printf(" %.3f |", s.report.shuffled_row.stored_ratio);
  std::printf("\n| stored / raw: trace file |");
  for (const auto& s : sets) std::printf(" %.3f |", s.report.lent2_row.stored_ratio);
  std::printf("\n\n");
}

void print_profile(const std::vector<Dataset>& sets) {
  std::printf(
      "Where the time went in the best runs (seconds; \"waiting\" is time the threads\n"
      "were runnable but another program had the CPU):\n\n");
  std::printf(
      "| data | run | wall | in put/lend_blob | caller CPU | caller page faults | worker CPU | "
      "waiting "
      "| cores busy |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& s : sets) {
    for (const ThroughputRow* row :
         {&s.report.zstd_row, &s.report.shuffled_row, &s.report.writer1_row, &s.report.writer2_row,
          &s.report.lent1_row, &s.report.lent2_row}) {
      const RunProfile& p = row->profile;
      std::printf("| %s | %s | %.3f | %.3f | %.3f | %ld | %.3f | %.3f | %.2f |\n", s.name.c_str(),
                  row->what.c_str(), row->timing.best(), p.caller_wall_s, p.caller_cpu_s,
                  p.caller_page_faults, p.worker_cpu_s, p.wait_s, p.cores_busy);
    }
  }
  std::printf(
      "\nThe writers' worker CPU by thread (seconds): compressing, copying frames into the\n"
      "file's stages, writing the stages:\n\n");
  std::printf("| data | run | msprof-zstd | msprof-write | msprof-io | other |\n");
  std::printf("|---|---|---:|---:|---:|---:|\n");
  for (const auto& s : sets) {
    for (const ThroughputRow* row :
         {&s.report.writer1_row, &s.report.writer2_row, &s.report.lent1_row, &s.report.lent2_row}) {
      double zstd = 0, write = 0, io = 0, other = 0;
      for (const auto& [name, cpu] : row->profile.thread_cpu_s) {
        (name == "msprof-zstd"    ? zstd
         : name == "msprof-write" ? write
         : name == "msprof-io"    ? io
                                  : other) += cpu;
      }
      std::printf("| %s | %s | %.3f | %.3f | %.3f | %.3f |\n", s.name.c_str(), row->what.c_str(),
                  zstd, write, io, other);
    }
  }
  std::printf("\n");
}

void print_open(const OpenReport& big, const OpenReport& small) {
  std::printf(
      "| trace | file MiB | frames | records | write s | open + list ms, median (best) "
      "| same, not in page cache ms | open + decode all ms |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  const auto row = [](const char* name, const OpenReport& r) {
    std::printf("| %s | %.1f | %zu | %zu | %.1f | %.2f (%.2f) | %.2f | %.1f |\n", name,
                static_cast<double>(r.file_bytes) / kMiB, r.frames, r.records, r.write_s,
                r.warm_open.median() * 1e3, r.warm_open.best() * 1e3, r.cold_open.median() * 1e3,
                r.decode_all.median() * 1e3);
  };
  row("large", big);
  row("small", small);
  std::printf("\n");
}

void print_targets(const std::vector<Dataset>& sets, const OpenReport& big) {
  std::printf("| ratio: best runs (medians) | target |");
  for (const auto& s : sets) std::printf(" %s |", s.name.c_str());
  std::printf("\n|---|---|");
  for (std::size_t i = 0; i < sets.size(); ++i) std::printf("---:|");
  std::printf("\n");
  const auto speedup = [](const ThroughputRow& slow, const ThroughputRow& fast, double target) {
    const double best = slow.timing.best() / fast.timing.best();
    const double median = slow.timing.median() / fast.timing.median();
    return fmt("%.2f", best) + fmt(" (%.2f)", median) + (best >= target ? "" : " MISSED");
  };
  for (const bool lent : {true, false}) {
    const char* how = lent ? "lend_blob" : "put_blob";
    const auto one = [&](const ThroughputReport& r) -> const ThroughputRow& {
      return lent ? r.lent1_row : r.writer1_row;
    };
    const auto two = [&](const ThroughputReport& r) -> const ThroughputRow& {
      return lent ? r.lent2_row : r.writer2_row;
    };
    std::printf("%s| writer(1 worker) / zstd alone, %s | >= 0.85 |", lent ? "" : "\n", how);
    for (const auto& s : sets) {
      std::printf(" %s |", speedup(s.report.zstd_row, one(s.report), 0.85).c_str());
    }
    std::printf(
        "\n| writer(1 worker) / byte shuffle + zstd alone (the writer's own overhead), %s | |",
        how);
    for (const auto& s : sets) {
      std::printf(" %s |", speedup(s.report.shuffled_row, one(s.report), 0).c_str());
    }
    std::printf("\n| writer(2 workers) / writer(1 worker), %s | >= 1.6 |", how);
    for (const auto& s : sets) {
      std::printf(" %s |", speedup(one(s.report), two(s.report), 1.6).c_str());
    }
  }
  std::printf("\n| for comparison: zstd 2 threads / 1 thread | |");
  for (const auto& s : sets) {
    std::printf(" %s |", speedup(s.report.zstd_row, s.report.zstd2_row, 0).c_str());
  }
  const double open_ms = big.warm_open.median() * 1e3;
  std::printf("\n| open + list the large trace, ms | < 50 | %.2f%s (not in page cache: %.2f) |\n\n",
              open_ms, open_ms < 50 ? "" : " MISSED", big.cold_open.median() * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Trace format throughput and open-time benchmark"};
  unsigned size_mib = 512, open_mib = 2048, ranges = 2000, chunk_kib = 4096;
  int repetitions = 3;
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  app.add_option("--size-mib", size_mib, "bytes of each data set, MiB")
      ->check(CLI::Range(1u, 16384u));
  app.add_option("--repetitions", repetitions, "runs of each throughput measurement")
      ->check(CLI::Range(1, 100));
  app.add_option("--open-mib", open_mib, "blob data in the large trace, MiB")
      ->check(CLI::Range(1u, 65536u));
  app.add_option("--ranges", ranges, "range records in each trace of the open test")
      ->check(CLI::Range(1u, 1000000u));
  app.add_option("--chunk-kib", chunk_kib,
                 "the writer's chunk size and zstd alone's input size, KiB (a recorded 1 MiB "
                 "buffer is one chunk of 1024)")
      ->check(CLI::Range(64u, 65536u));
  app.add_option("--dir", dir, "where to write the traces (removed at the end)")
      ->check(CLI::ExistingDirectory);
  CLI11_PARSE(app, argc, argv);

  try {
    const std::uint64_t bytes = std::uint64_t{size_mib} << 20;
    std::vector<float> floats(bytes / sizeof(float));
    const auto as_bytes = [&] { return std::as_bytes(std::span(floats)); };
    ThroughputConfig config;
    config.dir = dir;
    config.repetitions = repetitions;
    config.chunk_size = std::uint64_t{chunk_kib} << 10;

    std::vector<Dataset> sets;
    fill_random_floats(floats, 1);
    sets.push_back({"random float32", measure_throughput(as_bytes(), config)});
    fill_half_zero_floats(floats, 2);
    sets.push_back({"every other float32 zero", measure_throughput(as_bytes(), config)});
    floats = {};

    OpenConfig open;
    open.dir = dir;
    open.ranges = ranges;
    open.blob_bytes = std::uint64_t{open_mib} << 20;
    const OpenReport big = measure_open(open, "open-large.trace");
    open.blob_bytes = 64 << 10;
    const OpenReport small = measure_open(open, "open-small.trace");

    std::printf(
        "format_bench: %u MiB per data set, best of %d runs (median in brackets), zstd "
        "level %d (the writer's default), %u KiB chunks, %ld CPUs online\n\n",
        size_mib, repetitions, ThroughputConfig{}.compression_level, chunk_kib,
        ::sysconf(_SC_NPROCESSORS_ONLN));
    print_throughput(sets);
    print_profile(sets);
    print_open(big, small);
    print_targets(sets, big);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "format_bench: error: %s; check --dir has room for the traces\n",
                 e.what());
    return 1;
  }
  return 0;
}
