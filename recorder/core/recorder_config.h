#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "format/trace_objects.h"
#include "recorder/core/name_filter.h"

namespace msprof::record {

// What msprof-record asks of the recorder inside the program, passed through
// the environment (the launcher writes it, the layer reads it).
struct RecorderConfig {
  std::string output;  // the trace being written
  NameFilter include, exclude;
  bool final_state = true;
  bool kill = false;
  int compression_level = 1;
  // A snapshot chunk is stored compressed only when that saves at least
  // this share of it (percent). Compressing runs on cores the program uses
  // too (on a CPU device, its kernels), and random float32 data saves only
  // about a fifth for seconds of CPU per few GiB: record_bench's 64 MiB
  // case ran measurably slower compressing it (side-by-side runs). Zeros,
  // repeats, small integers and smooth data save half or more, and fast.
  static constexpr unsigned kDefaultMinSaving = 25;
  static constexpr unsigned kMaxMinSaving = trace::kMaxMinSavingPercent;
  unsigned min_saving = kDefaultMinSaving;
  // Snapshot bytes in flight; below the minimum the writer's own chunks in
  // flight would stall every snapshot.
  static constexpr std::uint64_t kMinMemoryBound = 64ull << 20;
  // A larger bound lets the program run further ahead of compression, but
  // past what is recycled every buffer in flight is fresh memory, and on VMs
  // a fresh page costs a host fault: record_bench's 64 MiB case ran faster
  // at 256 MiB than at 1 GiB in every round, with less added CPU, and
  // at 128 MiB less again (side-by-side runs), the smaller cases never
  // reaching either bound.
  static constexpr std::uint64_t kDefaultMemoryBound = 128ull << 20;
  std::uint64_t memory_bound = kDefaultMemoryBound;
  // Compressing threads. They run beside the program's own threads, so on
  // a machine the program keeps busy more of them take its CPU.
  static constexpr unsigned kMaxWorkers = 16;
  unsigned workers = 1;
  // Store the device binaries the driver built from source or IL too
  // (msprof-record --program-binaries).
  bool program_binaries = false;
  // Write a range's record behind the program (msprof-record
  // --write-behind): range_end returns at once, and a kill moments after it
  // can lose the range. By default range_end returns once the range is in
  // the file.
  bool write_behind = false;
  bool quiet = false;
  int status_fd = -1;  // where the launcher listens ("captured-all", stats)
  std::string command_line;

  // nullopt when the process is not under msprof-record.
  static std::optional<RecorderConfig> from_environment();
  // The same from any set of those variables (`lookup` answers nullptr for
  // one that is not set): the launcher reads back what it passes.
  static std::optional<RecorderConfig> from_variables(
      const std::function<const char*(const char*)>& lookup);
  // The variables that carry it (for the launcher).
  static constexpr const char* kOutputVar = "MSPROF_RECORD_OUTPUT";
  static constexpr const char* kIncludeVar = "MSPROF_RECORD_INCLUDE";
  static constexpr const char* kExcludeVar = "MSPROF_RECORD_EXCLUDE";
  static constexpr const char* kFinalStateVar = "MSPROF_RECORD_FINAL_STATE";
  static constexpr const char* kKillVar = "MSPROF_RECORD_KILL";
  static constexpr const char* kLevelVar = "MSPROF_RECORD_LEVEL";
  static constexpr const char* kMinSavingVar = "MSPROF_RECORD_MIN_SAVING";
  static constexpr const char* kMemoryBoundVar = "MSPROF_RECORD_MEMORY_BOUND";
  static constexpr const char* kWorkersVar = "MSPROF_RECORD_WORKERS";
  static constexpr const char* kQuietVar = "MSPROF_RECORD_QUIET";
  static constexpr const char* kProgramBinariesVar = "MSPROF_RECORD_PROGRAM_BINARIES";
  static constexpr const char* kWriteBehindVar = "MSPROF_RECORD_WRITE_BEHIND";
  static constexpr const char* kStatusFdVar = "MSPROF_RECORD_STATUS_FD";
  static constexpr const char* kCommandVar = "MSPROF_RECORD_COMMAND";
};

}  // namespace msprof::record
