#pragma once

#include <cstdint>
#include <filesystem>

#include "bench/format/timing.h"

namespace msprof::bench {

struct OpenConfig {
  std::filesystem::path dir;
  std::uint64_t blob_bytes = 2ull << 30;  // random, so the file really is this large
  unsigned ranges = 2000;
  int repetitions = 5;
};

struct OpenReport {
  std::uint64_t file_bytes = 0;
  std::size_t records = 0;
  std::size_t frames = 0;
  double write_s = 0;
  Timing warm_open;   // open + list the records, file in the page cache
  Timing cold_open;   // the same after the file was dropped from the page cache
  Timing decode_all;  // open + decode every record
};

// Writes a trace of `blob_bytes` of blob data referenced by `ranges` range
// records, times opening it, and removes it.
OpenReport measure_open(const OpenConfig& config, const std::filesystem::path& name);

}  // namespace msprof::bench
