#include "replayer/callgrind/simulated_counts.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace msprof::replay {
namespace {

const std::filesystem::path kData = MSPROF_CALLGRIND_DATA_DIR;

// The model data/README.md's run simulated.
CacheModel data_model() {
  CacheModel model;
  model.i1 = CacheLevelModel{4096, 2, 64};
  model.d1 = CacheLevelModel{4096, 2, 64};
  model.ll = CacheLevelModel{16384, 4, 64};
  return model;
}

std::vector<std::string> columns(const GroupCounts& counts) {
  std::vector<std::string> names;
  for (const auto& [name, value] : counts.values) names.push_back(name);
  return names;
}

// Every column a group gives is one of metric_columns(group), in its order.
void check_column_order(const GroupCounts& counts) {
  std::size_t next = 0;
  const auto& known = metric_columns(counts.group);
  for (const auto& [name, value] : counts.values) {
    CAPTURE(name);
    while (next < known.size() && known[next].name != name) ++next;
    CHECK(next < known.size());
  }
}

// Seq 5: Ir 45700 Dr 8121 Dw 2015 I1mr 3 D1mr 260 D1mw 1 ILmr 3 DLmr 130
// DLmw 1 Bc 8196 Bcm 2054 Bi 2008 Bim 985.
TEST_CASE("the first kernel's groups, from its dump's totals") {
  const CallgrindDump dump = read_callgrind_dump(kData / "callgrind.out.1");
  const GroupCounts l2 = simulated_group_counts(MetricGroup::L2Cache, dump, data_model());
  CHECK(l2.group == MetricGroup::L2Cache);
  CHECK(l2.backend == "sim");
  CHECK(columns(l2) == std::vector<std::string>{"read_cache_hit", "read_cache_miss",
                                                "write_cache_hit", "write_cache_miss",
                                                "total_hit_rate(%)"});
  CHECK(l2.value("read_cache_hit") == 130);  // D1mr - DLmr: the second sweep hits LL
  CHECK(l2.value("read_cache_miss") == 130);
  CHECK(l2.value("write_cache_hit") == 0);
  CHECK(l2.value("write_cache_miss") == 1);
  CHECK(*l2.value("total_hit_rate(%)") == doctest::Approx(100.0 * 130 / 261));
  check_column_order(l2);

  const GroupCounts memory = simulated_group_counts(MetricGroup::Memory, dump, data_model());
  CHECK(memory.backend == "sim");
  CHECK(columns(memory) == std::vector<std::string>{"l1_read_requests", "l1_write_requests",
                                                    "l1_read_miss", "l1_write_miss",
                                                    "l1_hit_rate(%)", "ll_to_l1_bytes",
                                                    "memory_to_ll_bytes"});
  CHECK(memory.value("l1_read_requests") == 8121);
  CHECK(memory.value("l1_write_requests") == 2015);
  CHECK(memory.value("l1_read_miss") == 260);
  CHECK(memory.value("l1_write_miss") == 1);
  CHECK(*memory.value("l1_hit_rate(%)") == doctest::Approx(100.0 * (10136 - 261) / 10136));
  CHECK(memory.value("ll_to_l1_bytes") == 261 * 64);
  CHECK(memory.value("memory_to_ll_bytes") == 131 * 64);
  check_column_order(memory);

  const GroupCounts instructions =
      simulated_group_counts(MetricGroup::Instructions, dump, data_model());
  // No cycles, no ipc: the simulation has no clock.
  CHECK(columns(instructions) == std::vector<std::string>{"instructions", "loads", "stores",
                                                          "branches", "branch_misses",
                                                          "branch_miss_rate(%)"});
  CHECK(instructions.value("instructions") == 45700);
  CHECK(instructions.value("loads") == 8121);
  CHECK(instructions.value("stores") == 2015);
  CHECK(instructions.value("branches") == 8196 + 2008);
  CHECK(instructions.value("branch_misses") == 2054 + 985);
  CHECK(*instructions.value("branch_miss_rate(%)") == doctest::Approx(100.0 * 3039 / 10204));
  check_column_order(instructions);
}

// Seq 6: Ir 12294 Dr 2049 Dw 2048 I1mr 1 D1mr 130 D1mw 128 ILmr 1 DLmr 14
// DLmw 128 Bc 2049 Bcm 10 (Bi and Bim zero, left out of the file).
TEST_CASE("the second kernel reads what the first left in the last level") {
  const CallgrindDump dump = read_callgrind_dump(kData / "callgrind.out.2");
  const auto all = simulated_counts(
      dump, data_model(), {MetricGroup::L2Cache, MetricGroup::Memory, MetricGroup::Instructions});
  REQUIRE(all.size() == 3);
  const GroupCounts& l2 = all[0];
  CHECK(l2.value("read_cache_hit") == 116);
  CHECK(l2.value("read_cache_miss") == 14);
  CHECK(l2.value("write_cache_hit") == 0);
  CHECK(l2.value("write_cache_miss") == 128);
  CHECK(*l2.value("total_hit_rate(%)") == doctest::Approx(100.0 * 116 / 258));
  const GroupCounts& memory = all[1];
  CHECK(*memory.value("l1_hit_rate(%)") == doctest::Approx(100.0 * (4097 - 258) / 4097));
  CHECK(memory.value("ll_to_l1_bytes") == 258 * 64);
  CHECK(memory.value("memory_to_ll_bytes") == 142 * 64);
  const GroupCounts& instructions = all[2];
  CHECK(instructions.value("instructions") == 12294);
  CHECK(instructions.value("branches") == 2049);
  CHECK(instructions.value("branch_misses") == 10);
  CHECK(*instructions.value("branch_miss_rate(%)") == doctest::Approx(100.0 * 10 / 2049));
}

TEST_CASE("rates over nothing are left out, not NaN") {
  const CallgrindDump dump = read_callgrind_dump(kData / "callgrind.out");
  const auto all = simulated_counts(
      dump, data_model(), {MetricGroup::L2Cache, MetricGroup::Memory, MetricGroup::Instructions});
  REQUIRE(all.size() == 3);
  CHECK(all[0].value("read_cache_hit") == 0);
  CHECK_FALSE(all[0].value("total_hit_rate(%)").has_value());
  CHECK(all[1].value("l1_read_requests") == 0);
  CHECK_FALSE(all[1].value("l1_hit_rate(%)").has_value());
  CHECK(all[2].value("branches") == 0);
  CHECK_FALSE(all[2].value("branch_miss_rate(%)").has_value());
}

TEST_CASE("without --branch-sim=yes the branch columns are left out") {
  CallgrindDump dump;
  dump.file = "callgrind.out.3";
  dump.events = {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"};
  dump.totals = {100, 40, 20, 1, 4, 2, 1, 3, 2};
  const GroupCounts instructions =
      simulated_group_counts(MetricGroup::Instructions, dump, data_model());
  CHECK(columns(instructions) == std::vector<std::string>{"instructions", "loads", "stores"});
}

TEST_CASE("without --cache-sim=yes the cache groups fail naming the file and the event") {
  CallgrindDump dump;
  dump.file = "/tmp/x/callgrind.out.3";
  dump.events = {"Ir"};
  dump.totals = {100};
  CHECK_THROWS_WITH_AS(simulated_group_counts(MetricGroup::L2Cache, dump, data_model()),
                       "callgrind output /tmp/x/callgrind.out.3 counted no D1mr event, which "
                       "L2Cache needs; the simulation must run with --cache-sim=yes",
                       CallgrindDumpError);
  CHECK_THROWS_AS(simulated_group_counts(MetricGroup::Memory, dump, data_model()),
                  CallgrindDumpError);
  const GroupCounts instructions =
      simulated_group_counts(MetricGroup::Instructions, dump, data_model());
  CHECK(columns(instructions) == std::vector<std::string>{"instructions"});
}

TEST_CASE("only the simulated groups are counted") {
  const CallgrindDump dump = read_callgrind_dump(kData / "callgrind.out.1");
  CHECK(simulated_metric_groups() == std::vector<MetricGroup>{MetricGroup::L2Cache,
                                                              MetricGroup::Memory,
                                                              MetricGroup::Instructions});
  CHECK_FALSE(is_simulated(MetricGroup::BasicInfo));
  CHECK_FALSE(is_simulated(MetricGroup::HostActivity));
  const auto all = simulated_counts(
      dump, data_model(),
      {MetricGroup::BasicInfo, MetricGroup::Instructions, MetricGroup::HostActivity});
  REQUIRE(all.size() == 1);
  CHECK(all[0].group == MetricGroup::Instructions);
  CHECK_THROWS_AS(simulated_group_counts(MetricGroup::HostActivity, dump, data_model()),
                  ReplayError);
}

TEST_CASE("line sizes come from the dump's own cache description where the model has none") {
  const CallgrindDump dump = read_callgrind_dump(kData / "callgrind.out.1");
  const GroupCounts memory = simulated_group_counts(MetricGroup::Memory, dump, CacheModel{});
  CHECK(memory.value("ll_to_l1_bytes") == 261 * 64);
  CallgrindDump undescribed = dump;
  undescribed.cache = CacheModel{};
  CHECK_THROWS_AS(simulated_group_counts(MetricGroup::Memory, undescribed, CacheModel{}),
                  ReplayError);
}

}  // namespace
}  // namespace msprof::replay
