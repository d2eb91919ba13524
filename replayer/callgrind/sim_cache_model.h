#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "replayer/core/metric_groups.h"

namespace msprof::replay {

// A cache model for the simulation and what was assumed or changed to get
// it, for the results' notes.
struct SimulatedCacheModel {
  CacheModel model;
  std::vector<std::string> notes;
};

// What is simulated where the host describes no cache: I1 and D1 32 KiB,
// 8-way, 64 B lines; LL 8 MiB, 16-way, 64 B lines (a common x86-64 core of
// the last decade; not valgrind's own fallback, which is far smaller).
CacheModel generic_cache_model();

// The host CPU's caches as sysfs describes cpu0's
// (`sysfs_root`/devices/system/cpu/cpu0/cache/index*/{level,type,size,
// ways_of_associativity,coherency_line_size}): I1 the level 1 Instruction
// cache, D1 the level 1 Data cache, LL the Unified cache of the highest
// level. Each level made callgrind-compatible (callgrind_compatible_level,
// with a note when that changed it); a level sysfs does not describe is
// the generic model's, with a note. Never throws.
SimulatedCacheModel host_cache_model(const std::filesystem::path& sysfs_root = "/sys");

// `level` as valgrind simulates a cache it detects with a number of sets
// that is not a power of two: the same line, the sets rounded down to a
// power of two and the ways raised in proportion (rounded), so that the
// size stays about the same; the size is then ways x line x sets. A level
// already fit is returned as it is (its size cut to whole sets).
CacheLevelModel callgrind_compatible_level(const CacheLevelModel& level);

// "--I1=32768,8,64", "--D1=...", "--LL=..." for a complete model (see
// complete_cache_model). ReplayError when a level is missing.
std::vector<std::string> callgrind_cache_arguments(const CacheModel& model);

struct FoundValgrind {
  std::filesystem::path program;  // /usr/bin/valgrind
  std::string version;            // "valgrind-3.19.0", what --version printed
};

// `valgrind` on `search_path` (PATH's form: folders separated by ':'), or
// on the PATH of this process, checked by running `valgrind --version`.
// UsageError naming the package when there is none or it does not run.
FoundValgrind find_valgrind(std::string_view search_path);
FoundValgrind find_valgrind();
// Whether find_valgrind() finds one: for --list-metrics, which says what
// it cannot collect rather than failing.
bool valgrind_found();

}  // namespace msprof::replay
