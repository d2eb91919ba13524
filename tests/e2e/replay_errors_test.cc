// msprof-replay on bad real input: each error is one line on stderr in the
// house format and a non-zero exit; damage confined to one range's data
// fails that range only.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "tests/e2e/recorded_examples.h"
#include "tests/e2e/tool_commands.h"
#include "tests/e2e/trace_damage.h"
#include "tests/support/temp_dir.h"

using msprof::test::find_range;
using msprof::test::kFrameHeaderBytes;
using msprof::test::lines_starting;
using msprof::test::recorded;
using msprof::test::replay;
using msprof::test::replay_json;
using msprof::test::RunResult;
using msprof::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

void check_one_line_error(const RunResult& r, const std::string& part) {
  INFO("stderr: ", r.err);
  CHECK(r.exit_code == 1);
  CHECK(count_lines(r.err) == 1);
  CHECK(r.err.rfind("msprof-replay: error: ", 0) == 0);
  CHECK(r.err.find(part) != std::string::npos);
  CHECK(r.err.find("; ") != std::string::npos);  // and what to do
  CHECK(r.out.empty());
}

RunResult replay_fast(const fs::path& trace, std::vector<std::string> options, const TempDir& dir) {
  std::vector<std::string> args{trace.string(), "--launch-count",   "2", "--cache-size", "1M",
                                "--output",     dir.path().string()};
  args.insert(args.end(), options.begin(), options.end());
  return replay(args, dir.path());
}

}  // namespace

TEST_CASE("a missing trace") {
  TempDir dir;
  check_one_line_error(replay_fast(dir / "nothing_here.fb", {}, dir),
                       "cannot open trace " + (dir / "nothing_here.fb").string());
}

TEST_CASE("a file that is not a trace: a Python script and an empty file") {
  TempDir dir;
  check_one_line_error(replay_fast(msprof::test::example("test.py"), {}, dir),
                       "not an msprof-replay trace");
  { std::ofstream(dir / "empty.fb"); }
  check_one_line_error(replay_fast(dir / "empty.fb", {}, dir), "not an msprof-replay trace");
}

TEST_CASE("a byte flipped in a range record: the trace is damaged") {
  TempDir dir;
  const fs::path& trace = recorded("test.py").trace;
  const auto offset = msprof::test::range_frame_offset(trace, "range1");
  msprof::test::copy_flipped(trace, dir / "flipped.fb", offset + kFrameHeaderBytes + 20);
  check_one_line_error(replay_fast(dir / "flipped.fb", {}, dir), "fails its checksum");
}

TEST_CASE("a byte flipped in one range's data fails that range; the others replay (status 3)") {
  TempDir dir;
  const fs::path& trace = recorded("test.py").trace;
  const auto offset = msprof::test::private_chunk_offset(trace, "range1");
  msprof::test::copy_flipped(trace, dir / "flipped.fb", offset + kFrameHeaderBytes + 1);
  const auto r = replay_json(dir / "flipped.fb", {}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 3);
  REQUIRE(r.summary.is_object());
  const auto* range1 = find_range(r.summary, "range1");
  REQUIRE(range1 != nullptr);
  CHECK((*range1)["status"] == "failed");
  // The final state is the damaged chunk: read for verification.
  const std::string reason = (*range1)["reason"];
  CHECK(reason.rfind("final state of buffer ", 0) == 0);
  CHECK(reason.find(" is unreadable: blob chunk content does not match its hash") !=
        std::string::npos);
  const auto* range2 = find_range(r.summary, "range2");
  REQUIRE(range2 != nullptr);
  CHECK((*range2)["status"] == "replayed");
  CHECK((*range2)["verification"]["status"] == "bit-exact");
  CHECK(lines_starting(r.run.err, "msprof-replay: error:").size() == 1);
}

TEST_CASE("a trace cut in the middle of its last range: the complete ranges before it replay") {
  TempDir dir;
  const fs::path& trace = recorded("test.py").trace;
  // range2 ends last, so its record is the last range frame; cut inside it.
  const auto offset = msprof::test::range_frame_offset(trace, "range2");
  const auto size = msprof::test::frame_size_at(trace, offset);
  msprof::test::copy_truncated(trace, dir / "cut.fb", offset + size / 2);
  const auto r = replay_json(dir / "cut.fb", {}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  CHECK(r.run.err.find("msprof-replay: warning: trace has no usable trailer") != std::string::npos);
  REQUIRE(r.summary.is_object());
  CHECK(find_range(r.summary, "range2") == nullptr);
  const auto* range1 = find_range(r.summary, "range1");
  REQUIRE(range1 != nullptr);
  CHECK((*range1)["verification"]["status"] == "bit-exact");
  CHECK(msprof::test::kernel_names(*range1) == std::vector<std::string>{"axpbyz", "multiply"});
}

TEST_CASE("a trace cut before its first range: nothing to replay") {
  TempDir dir;
  const fs::path& trace = recorded("test.py").trace;
  const auto offset = msprof::test::range_frame_offset(trace, "range1");
  msprof::test::copy_truncated(trace, dir / "cut.fb", offset + 10);
  const auto r = replay_fast(dir / "cut.fb", {}, dir);
  INFO(r.err);
  CHECK(r.exit_code != 0);
  CHECK(lines_starting(r.err, "msprof-replay: error:").size() == 1);
  CHECK(r.err.find("msprof-replay: warning: trace has no usable trailer") != std::string::npos);
}

TEST_CASE("a range name that is not in the trace: the message lists the names") {
  TempDir dir;
  const auto r = replay_fast(recorded("test.py").trace, {"--include", "range9"}, dir);
  check_one_line_error(r, "no range named 'range9'");
  CHECK(r.err.find("'range1', 'range2', 'range3'") != std::string::npos);
}

TEST_CASE("a device that does not exist, by index and by name") {
  TempDir dir;
  for (const char* device : {"7", "no-such-device"}) {
    const auto r = replay_fast(recorded("test.py").trace, {"--device", device}, dir);
    check_one_line_error(r, std::string("no device '") + device + "'");
    CHECK(r.err.find("devices: 0 '") != std::string::npos);
  }
}

TEST_CASE("bad option values on a real trace") {
  TempDir dir;
  const fs::path& trace = recorded("test.py").trace;
  for (const auto& options : std::vector<std::vector<std::string>>{
           {"--launch-count", "0"}, {"--replay-mode", "sideways"}, {"--verify", "sometimes"}}) {
    const auto r = replay_fast(trace, options, dir);
    INFO(options[0], " ", options[1], ": ", r.err);
    CHECK(r.exit_code != 0);
    CHECK(count_lines(r.err) == 1);
    CHECK(r.err.rfind("msprof-replay: error: ", 0) == 0);
  }
}
