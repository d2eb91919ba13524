// A buffer larger than half the recorder's memory bound is snapshotted in
// place, through a map: its chunks the trace already holds are hashed, not
// copied. The program's results stay its own, and the range replays
// bit-exact, for zeros (stored once) and for random data (stored whole).
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "tests/e2e/tool_commands.h"
#include "tests/support/temp_dir.h"

using msprof::test::find_range;
using msprof::test::JsonReplay;
using msprof::test::replay_json;
using msprof::test::TempDir;

namespace {

// The workload of bench/record/snapshot_bench.py, small: 48 MiB, over the
// 32 MiB that half the smallest memory bound (64 MiB) leaves.
std::vector<std::string> workload(const std::string& kind) {
  return {msprof::test::python(),
          std::string(MSPROF_SOURCE_DIR) + "/bench/record/snapshot_workload.py",
          "--kind",
          kind,
          "--mib",
          "48"};
}

std::string checksum(const std::string& out) {
  const auto at = out.find("checksum ");
  return at == std::string::npos ? std::string() : out.substr(at);
}

}  // namespace

TEST_CASE("a buffer over half the memory bound is captured in place and replays bit-exact") {
  for (const std::string kind : {"zeros", "random"}) {
    CAPTURE(kind);
    TempDir dir;
    const auto plain = msprof::test::run_command(workload(kind), dir.path());
    REQUIRE(plain.exit_code == 0);
    const auto trace = dir / "large.fb";
    const auto rec = msprof::test::record({"-o", trace.string(), "--memory-bound", "64M"},
                                          workload(kind), dir.path());
    INFO(rec.err);
    REQUIRE(rec.exit_code == 0);
    CHECK(checksum(rec.out) == checksum(plain.out));
    CHECK_FALSE(checksum(plain.out).empty());
    std::smatch m;
    const std::string& err = rec.err;
    REQUIRE(
        std::regex_search(err, m,
                          std::regex(R"(large: complete, 1 kernel\(s\) \[scale\], 1 command\(s\), )"
                                     R"(96\.00 MiB captured, ([0-9.]+) (B|KiB|MiB) stored)")));
    if (kind == "zeros") {
      CHECK(m[2] != "MiB");  // one chunk of zeros, whatever its count
    } else {
      CHECK(m[2] == "MiB");
      CHECK(std::stod(m[1]) >= 48.0);  // random floats: no chunk repeats
    }
    const JsonReplay r = replay_json(trace, {}, dir.path());
    INFO(r.run.err);
    CHECK(r.run.exit_code == 0);
    const auto* range = find_range(r.summary, "large");
    REQUIRE(range != nullptr);
    CHECK((*range)["verification"]["status"] == "bit-exact");
  }
}
