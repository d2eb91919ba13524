#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "replayer/core/counters/counter_backend.h"
#include "replayer/core/metric_groups.h"

namespace msprof::replay {

// Which launch a dump holds, as its trigger name carries it.
struct DumpName {
  std::size_t range_index = 0;
  // The workbench variant counted (its index among the options'), or the
  // recorded range.
  std::optional<std::size_t> variant;
  unsigned pass_index = 0;
  std::uint64_t seq = 0;
  bool operator==(const DumpName&) const = default;
};

// "msprof range=3 pass=0 seq=17"; "msprof range=3 variant=1 pass=0 seq=17".
std::string dump_name(const DumpName& name);
// The launch a dump name says, nullopt for any other text (the dump at
// program termination, another tool's dump).
std::optional<DumpName> parse_dump_name(std::string_view text);

// The sim backend's side inside the process callgrind runs (the replay of
// the selected ranges, started with --instr-atstart=no --collect-atstart=no
// and collection toggled on PoCL's _pocl_kernel_*_workgroup* functions).
// It only marks where each launch's counts start and end, with callgrind's
// client requests; the counts are read later from the dump files
// (read_callgrind_dump, simulated_counts). Outside callgrind the requests
// do nothing.
class CallgrindCounters final : public CounterBackend {
 public:
  // `model`: the complete cache model callgrind simulates (its --I1, --D1
  // and --LL), for clear_cache() and the notes.
  explicit CallgrindCounters(CacheModel model);
  ~CallgrindCounters() override;

  std::string name() const override { return "sim"; }
  // One pass with every simulated group: the simulation counts all its
  // events at once. Groups it does not simulate are left out.
  std::vector<std::vector<MetricGroup>> passes(
      const std::vector<MetricGroup>& groups) const override;
  // Instruments only around each range's counting passes, so that start-up,
  // loading and the warm-up passes run at valgrind's plain speed (starting
  // also empties the simulated cache).
  void begin_range() override;
  void end_range() override;
  void begin_pass(std::size_t range_index, unsigned pass_index,
                  const std::vector<MetricGroup>& groups) override;
  void count_variant(std::optional<std::size_t> variant) override { variant_ = variant; }
  void begin_kernel(std::uint64_t seq) override;
  // Dumps the launch's counts to their own file, named by dump_name().
  std::vector<GroupCounts> end_kernel(std::uint64_t seq) override;
  void end_pass() override {}
  // Empties the simulated D1 and LL by reading a scratch region of the
  // larger one plus an eighth, one load per line: the simulator ignores
  // CLFLUSH and does not know CLFLUSHOPT.
  bool clear_cache() override;
  // The counts see the simulator's cache, never the device's.
  bool simulates_cache() const override { return true; }
  std::vector<std::string> notes() const override;

 private:
  CacheModel model_;
  std::size_t range_index_ = 0;
  unsigned pass_index_ = 0;
  std::optional<std::size_t> variant_;
  std::size_t scratch_bytes_ = 0;
  std::size_t scratch_stride_ = 64;
  // Mapped, never written: its first reads map the zero page, so the
  // clear costs no memset of its size under the simulator.
  void* scratch_ = nullptr;
};

}  // namespace msprof::replay
