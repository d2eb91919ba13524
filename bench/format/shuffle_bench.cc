// shuffle_bench: what the byte-shuffle filter does to zstd on kinds of data
// device buffers hold, at the writer's default level and at level 3, and
// what the writer makes of the same data.
//
//   build/release/bench/format/shuffle_bench [--mib 16] [--repetitions 5]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "bench/format/timing.h"
#include "format/byte_shuffle.h"
#include "format/trace_writer.h"
#include "format/zstd_codec.h"

namespace {

using msprof::bench::Timing;
using msprof::bench::wall_seconds;

constexpr std::size_t kChunk = 4u << 20;

struct Kind {
  const char* name;
  std::function<void(std::vector<float>&, std::mt19937_64&)> fill;
};

template <typename T>
void store(std::vector<float>& out, std::size_t i, T value) {
  std::memcpy(&out[i], &value, 4);
}

const Kind kKinds[] = {
    {"float32 uniform [0, 1) (numpy's random)",
     [](auto& v, auto& rng) {
       for (auto& f : v) f = static_cast<float>(rng() >> 40) * 0x1p-24f;
     }},
    {"float32 normal (0, 1)",
     [](auto& v, auto& rng) {
       std::normal_distribution<float> normal(0.0f, 1.0f);
       for (auto& f : v) f = normal(rng);
     }},
    {"float32 normal (0, 0.01), weights-like",
     [](auto& v, auto& rng) {
       std::normal_distribution<float> normal(0.0f, 0.01f);
       for (auto& f : v) f = normal(rng);
     }},
    {"float32 sin(0.001 i), smooth",
     [](auto& v, auto&) {
       for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.001f * static_cast<float>(i));
     }},
    {"int32 uniform [0, 1000)",
     [](auto& v, auto& rng) {
       for (std::size_t i = 0; i < v.size(); ++i)
         store(v, i, static_cast<std::int32_t>(rng() % 1000));
     }},
    {"every other float32 zero",
     [](auto& v, auto& rng) {
       for (std::size_t i = 0; i < v.size(); ++i)
         v[i] = i % 2 == 0 ? static_cast<float>(rng() >> 40) * 0x1p-24f : 0.0f;
     }},
};

struct Result {
  double ratio = 0;
  Timing timing;
};

Result measure(std::span<const std::byte> data, int level, bool shuffle, int repetitions) {
  msprof::trace::ZstdCompressor compressor(level);
  std::vector<std::byte> planes(kChunk), out(msprof::trace::ZstdCompressor::bound(kChunk));
  Result r;
  for (int rep = 0; rep < repetitions; ++rep) {
    std::uint64_t stored = 0;
    const double t0 = wall_seconds();
    for (std::size_t at = 0; at < data.size(); at += kChunk) {
      auto chunk = data.subspan(at, std::min(kChunk, data.size() - at));
      if (shuffle) {
        msprof::trace::shuffle4(chunk, std::span(planes).first(chunk.size()));
        chunk = std::span<const std::byte>(planes).first(chunk.size());
      }
      const std::size_t n = compressor.compress_to(chunk, out);
      stored += n == 0 ? chunk.size() : n;
    }
    r.timing.seconds.push_back(wall_seconds() - t0);
    r.ratio = static_cast<double>(stored) / static_cast<double>(data.size());
  }
  return r;
}

// The trace writer itself, one worker: the filter as it codes chunks (by
// plane, raw planes where zstd gains nothing), with its own overhead.
Result measure_writer(std::span<const std::byte> data, int level, int repetitions,
                      const std::filesystem::path& path) {
  msprof::trace::TraceWriter::Options options;
  options.compression_level = level;
  options.workers = 1;
  Result r;
  for (int rep = 0; rep < repetitions; ++rep) {
    const double t0 = wall_seconds();
    {
      msprof::trace::TraceWriter writer(path, options);
      writer.put_blob(data);
      writer.close();
    }
    r.timing.seconds.push_back(wall_seconds() - t0);
    r.ratio =
        static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(data.size());
  }
  std::filesystem::remove(path);
  return r;
}

// The filter one byte at a time, as shuffle4 was before it had a vector
// loop: the reference its speed is printed against.
void shuffle_bytewise(std::span<const std::byte> in, std::span<std::byte> out) {
  const std::size_t n = in.size() / 4;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < 4; ++k) out[k * n + i] = in[4 * i + k];
  }
}

double best_mib_per_s(const std::function<void()>& run, std::size_t bytes, int repetitions) {
  Timing t;
  for (int rep = 0; rep < repetitions * 20; ++rep) {
    const double t0 = wall_seconds();
    run();
    t.seconds.push_back(wall_seconds() - t0);
  }
  return static_cast<double>(bytes) / (1 << 20) / t.best();
}

// How fast the filter itself runs on a 4 MiB chunk, against byte by byte.
void print_filter_speed(int repetitions) {
  std::vector<std::byte> in(kChunk), planes(kChunk), back(kChunk), reference(kChunk);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<std::byte>((i * 2654435761u) >> 13);
  const double bytewise =
      best_mib_per_s([&] { shuffle_bytewise(in, reference); }, kChunk, repetitions);
  const double forward =
      best_mib_per_s([&] { msprof::trace::shuffle4(in, planes); }, kChunk, repetitions);
  const double backward =
      best_mib_per_s([&] { msprof::trace::unshuffle4(planes, back); }, kChunk, repetitions);
  if (planes != reference || back != in) throw std::runtime_error("shuffle4 is not a transpose");
  std::printf(
      "filter on a 4 MiB chunk: shuffle4 %.0f MiB/s, unshuffle4 %.0f MiB/s, byte by byte %.0f "
      "MiB/s (shuffle4 %.1fx)\n\n",
      forward, backward, bytewise, forward / bytewise);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("What the byte-shuffle filter does to zstd, on kinds of device data");
  unsigned mib = 16;
  int repetitions = 5;
  app.add_option("--mib", mib, "MiB of each kind of data")->check(CLI::Range(4u, 4096u));
  app.add_option("--repetitions", repetitions, "runs of each measurement")
      ->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);
  try {
    const int levels[] = {msprof::trace::TraceWriter::Options{}.compression_level, 3};
    std::printf(
        "shuffle_bench: %u MiB of each kind, 4 MiB chunks, best of %d runs (MiB/s, shuffling "
        "included)\n\n",
        mib, repetitions);
    print_filter_speed(repetitions);
    std::printf(
        "| data | level | as is: stored / raw | as is: MiB/s | shuffled: stored / raw | "
        "shuffled: MiB/s | 1-worker TraceWriter: stored / raw | 1-worker TraceWriter: MiB/s "
        "|\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    const auto path = std::filesystem::temp_directory_path() /
                      ("shuffle_bench-" + std::to_string(::getpid()) + ".fb");
    std::mt19937_64 rng(1);
    for (const Kind& kind : kKinds) {
      std::vector<float> values((std::size_t{mib} << 20) / 4);
      kind.fill(values, rng);
      const std::span<const std::byte> data(reinterpret_cast<const std::byte*>(values.data()),
                                            values.size() * 4);
      for (const int level : levels) {
        const Result plain = measure(data, level, false, repetitions);
        const Result planes = measure(data, level, true, repetitions);
        const Result writer = measure_writer(data, level, repetitions, path);
        const double mb = static_cast<double>(data.size()) / (1 << 20);
        std::printf("| %s | %d | %.3f | %.0f | %.3f | %.0f | %.3f | %.0f |\n", kind.name, level,
                    plain.ratio, mb / plain.timing.best(), planes.ratio, mb / planes.timing.best(),
                    writer.ratio, mb / writer.timing.best());
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shuffle_bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
