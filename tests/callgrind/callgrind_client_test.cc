#include "replayer/callgrind/callgrind_client.h"

#include <doctest/doctest.h>

#include <limits>

#include "replayer/callgrind/callgrind_dump.h"

namespace msprof::replay {
namespace {

TEST_CASE("a dump name says the range, pass and launch, and reads back") {
  CHECK(dump_name({3, std::nullopt, 0, 17}) == "msprof range=3 pass=0 seq=17");
  CHECK(parse_dump_name("msprof range=3 pass=0 seq=17") == DumpName{3, std::nullopt, 0, 17});
  // A workbench variant's launch.
  CHECK(dump_name({3, 1, 0, 17}) == "msprof range=3 variant=1 pass=0 seq=17");
  CHECK(parse_dump_name("msprof range=3 variant=1 pass=0 seq=17") == DumpName{3, 1, 0, 17});
  const DumpName largest{
      std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max(),
      std::numeric_limits<unsigned>::max(), std::numeric_limits<std::uint64_t>::max()};
  CHECK(parse_dump_name(dump_name(largest)) == largest);
  // The name the data's real dump carries.
  const CallgrindDump dump =
      read_callgrind_dump(std::filesystem::path(MSPROF_CALLGRIND_DATA_DIR) / "callgrind.out.1");
  CHECK(parse_dump_name(dump.client_request) == DumpName{0, std::nullopt, 0, 5});
}

TEST_CASE("other names are not dump names") {
  for (const char* text :
       {"", "Program termination", "msprof", "msprof range=1 pass=2", "msprof range=1 pass=2 seq=",
        "msprof range=1 pass=2 seq=3 ", "msprof range=1 pass=2 seq=3 more",
        "msprof range=-1 pass=0 seq=0", "msprof pass=0 range=1 seq=0",
        "msprof range=1  pass=2 seq=3", "msprof range=1x pass=2 seq=3",
        "other range=1 pass=2 seq=3", "msprof range=99999999999999999999999 pass=0 seq=0",
        "msprof range=1 variant= pass=0 seq=0", "msprof range=1 pass=0 variant=1 seq=0"}) {
    const std::string shown = text;
    CAPTURE(shown);
    CHECK_FALSE(parse_dump_name(text).has_value());
  }
}

CacheModel small_model() {
  CacheModel model;
  model.i1 = CacheLevelModel{4096, 2, 64};
  model.d1 = CacheLevelModel{4096, 2, 64};
  model.ll = CacheLevelModel{16384, 4, 64};
  return model;
}

TEST_CASE("the sim backend: every simulated group in one pass") {
  const CallgrindCounters counters(small_model());
  CHECK(counters.name() == "sim");
  CHECK(counters.passes({MetricGroup::BasicInfo, MetricGroup::L2Cache, MetricGroup::Memory,
                         MetricGroup::Instructions, MetricGroup::HostActivity}) ==
        std::vector<std::vector<MetricGroup>>{
            {MetricGroup::L2Cache, MetricGroup::Memory, MetricGroup::Instructions}});
  CHECK(counters.passes({MetricGroup::Instructions}) ==
        std::vector<std::vector<MetricGroup>>{{MetricGroup::Instructions}});
  CHECK(counters.passes({MetricGroup::BasicInfo, MetricGroup::HostActivity}).empty());
}

TEST_CASE("outside callgrind the client requests do nothing and the counts come later") {
  CallgrindCounters counters(small_model());
  for (unsigned pass = 0; pass < 2; ++pass) {
    counters.begin_pass(1, pass, {MetricGroup::L2Cache});
    CHECK(counters.clear_cache());
    counters.begin_kernel(7);
    CHECK(counters.end_kernel(7).empty());
    counters.end_pass();
  }
  const auto notes = counters.notes();
  REQUIRE(notes.size() == 2);
  CHECK(notes[0] ==
        "counts simulated by callgrind, caches I1 4096 B, 2-way, 64 B lines; D1 4096 B, 2-way, "
        "64 B lines; LL 16384 B, 4-way, 64 B lines (L2Cache and Memory count data accesses "
        "only, not instruction fetches)");
  CHECK(notes[1].find("reading 18 KiB of scratch memory") != std::string::npos);
}

TEST_CASE("without a data cache in the model there is nothing to clear") {
  CallgrindCounters counters(CacheModel{});
  CHECK_FALSE(counters.clear_cache());
}

}  // namespace
}  // namespace msprof::replay
