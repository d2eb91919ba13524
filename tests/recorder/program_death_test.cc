// msprof-record when the program dies: at every moment, the program's own
// status, one line saying how it ended and what the trace keeps, and no
// file posing as a result.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "format/trace_reader.h"
#include "tests/recorder/record_run.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::record;
using msprof::test::TempDir;

namespace {

struct Death {
  const char* moment;
  const char* how;
  int status;
  const char* ended;  // after "the program "
};

test::RunResult record_death(const TempDir& dir, const char* moment, const char* how) {
  return record({}, {MSPROF_DYING_PROGRAM_EXE, moment, how}, dir.path());
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<trace::Range> ranges_of(const TempDir& dir) {
  return trace::TraceReader(dir / "trace.fb").read_all<trace::Range>();
}

// Records the program dying as `d` says; checks its status, the one line
// that says how it ended followed by `outcome`, and that no .partial is left.
void check_death(const TempDir& dir, const Death& d, const std::string& outcome) {
  CAPTURE(d.moment);
  CAPTURE(d.how);
  const auto rec = record_death(dir, d.moment, d.how);
  CAPTURE(rec.err);
  CHECK(rec.exit_code == d.status);
  CHECK(has(rec.err, std::string("msprof-record: the program ") + d.ended + outcome + "\n"));
  CHECK_FALSE(has(rec.err, "error"));
  CHECK_FALSE(std::filesystem::exists(dir / "trace.fb.partial"));
}

}  // namespace

TEST_CASE("killed before a finished range reached the trace: its status, and no trace") {
  const Death deaths[] = {
      {"start", "abort", 134, "was killed by signal 6 (SIGABRT)"},
      {"first-call", "abort", 134, "was killed by signal 6 (SIGABRT)"},
      {"buffers", "kill", 137, "was killed by signal 9 (SIGKILL)"},
  };
  for (const auto& d : deaths) {
    TempDir dir;
    check_death(dir, d, " before a range it finished reached the trace; no trace written");
    CHECK_FALSE(std::filesystem::exists(dir / "trace.fb"));
  }
}

TEST_CASE("killed after a range: its status, and the trace keeps that range") {
  const Death deaths[] = {
      {"between", "abort", 134, "was killed by signal 6 (SIGABRT)"},
      {"inside", "kill", 137, "was killed by signal 9 (SIGKILL)"},
  };
  for (const auto& d : deaths) {
    TempDir dir;
    check_death(dir, d, "; the trace keeps the 1 range(s) it finished");
    const auto ranges = ranges_of(dir);
    REQUIRE(ranges.size() == 1);
    CHECK(ranges[0].name == "first");
    CHECK(ranges[0].status == trace::RangeStatus::Complete);
  }
}

TEST_CASE("a range whose end returned is in the trace when the program is killed at once") {
  const std::pair<const char*, std::size_t> moments[] = {{"end-first", 1}, {"end-second", 2}};
  for (const auto& [moment, finished] : moments) {
    CAPTURE(moment);
    TempDir dir;
    const auto rec = record_death(dir, moment, "kill");
    CAPTURE(rec.err);
    CHECK(rec.exit_code == 137);
    CHECK(has(rec.err,
              "; the trace keeps the " + std::to_string(finished) + " range(s) it finished\n"));
    const auto ranges = ranges_of(dir);
    REQUIRE(ranges.size() == finished);
    CHECK(ranges.back().status == trace::RangeStatus::Complete);
    CHECK(ranges.back().final_state.size() == 1);
  }
}

TEST_CASE("a program that exits with a status: that status, and the trace it finished") {
  SUBCASE("before any range: a trace that describes the run") {
    TempDir dir;
    const auto rec = record_death(dir, "buffers", "exit");
    CAPTURE(rec.err);
    CHECK(rec.exit_code == 3);
    CHECK_FALSE(has(rec.err, "error"));
    CHECK(ranges_of(dir).empty());
  }
  SUBCASE("inside a range: the finished one complete, the open one truncated") {
    TempDir dir;
    const auto rec = record_death(dir, "inside", "exit");
    CAPTURE(rec.err);
    CHECK(rec.exit_code == 3);
    const auto ranges = ranges_of(dir);
    REQUIRE(ranges.size() == 2);
    CHECK(ranges[0].status == trace::RangeStatus::Complete);
    CHECK(ranges[1].name == "second");
    CHECK(ranges[1].status == trace::RangeStatus::Truncated);
  }
  SUBCASE("at the end: both ranges and status 0") {
    TempDir dir;
    const auto rec = record_death(dir, "never", "exit");
    CAPTURE(rec.err);
    CHECK(rec.exit_code == 0);
    CHECK(rec.out == "done\n");
    CHECK_FALSE(has(rec.err, "the program was"));
    CHECK(ranges_of(dir).size() == 2);
  }
}
