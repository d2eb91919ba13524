#include <doctest/doctest.h>

#include <fstream>
#include <thread>
#include <utility>
#include <vector>

#include "format/trace_reader.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"
#include "replayer/opencl/worker_thread_placement.h"
#include "tests/replayer/synthetic_trace.h"
#include "tests/support/small_disk.h"
#include "tests/support/temp_dir.h"

using msprof::test::read_text;
using msprof::test::run_command;
using msprof::test::SyntheticOptions;
using msprof::test::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kReplay = MSPROF_REPLAY_EXE;

struct Run {
  int status = 0;
  std::string out, err;
};

// `prefix` goes before the command: variables for its environment, or a
// command that runs it (taskset).
Run replay(const std::string& args, const std::string& prefix = "") {
  Run r;
  r.status = run_command(prefix + kReplay + " " + args, r.out, r.err);
  return r;
}

std::string quoted(const fs::path& p) {
  return "'" + p.string() + "'";
}

fs::path only_result(const fs::path& parent) {
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(parent)) {
    if (e.path().filename().string().rfind("OPPROF_", 0) == 0) found.push_back(e.path());
  }
  REQUIRE(found.size() == 1);
  return found.front();
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A one-line error on stderr, in the house format, and a failure status.
void check_one_line_error(const Run& r, const std::string& part) {
  CHECK(r.status == 1);
  CHECK(count_lines(r.err) == 1);
  CHECK(r.err.rfind("msprof-replay: error: ", 0) == 0);
  CHECK(r.err.find(part) != std::string::npos);
  CHECK(r.err.find("; ") != std::string::npos);
}

const char* kFast = " --launch-count 3 --cache-control none";

}  // namespace

TEST_CASE("msprof-replay writes the table and an OPPROF folder shaped like the reference") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  const Run r = replay(quoted(dir / "t.fb") + " --include range1 --launch-count 4 " +
                       "--cache-control all --cache-size 1M --output " + quoted(dir / "out"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  for (const char* kernel : {"add", "negate", "scale", "group_sum"}) {
    CHECK(r.out.find(kernel) != std::string::npos);
  }
  CHECK(r.out.find("bit-exact") != std::string::npos);

  const fs::path folder = only_result(dir / "out");
  const std::string name = folder.filename().string();
  CHECK(name.size() == std::string("OPPROF_20260101000000_000000").size());
  for (const char* k : {"add_0", "negate_1", "scale_2", "group_sum_3", "scale_4"}) {
    const std::string info = read_text(folder / k / "OpBasicInfo.csv");
    CHECK(info.rfind("Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device ID,PID,"
                     "Current Freq,Rated Freq\n",
                     0) == 0);
    CHECK(info.find(",4242,") != std::string::npos);  // the recorded program's PID
    CHECK(count_lines(read_text(folder / k / "PassDurations.csv")) == 1 + 4);
  }
  CHECK(read_text(folder / "add_0" / "OpBasicInfo.csv").find("add,kernel,") != std::string::npos);
  CHECK(read_text(folder / "add_0" / "OpBasicInfo.csv").find(",16,,0,4242,") != std::string::npos);
  const std::string csv = read_text(folder / "summary.csv");
  CHECK(count_lines(csv) == 1 + 1 + 5);
  CHECK(csv.find("range,range1,replayed,") != std::string::npos);
  // The synthetic trace holds source only: rebuilt, and the row says so.
  const auto row = csv.find("range,range1,");
  REQUIRE(row != std::string::npos);
  CHECK(csv.substr(row, csv.find('\n', row) - row).ends_with(",source"));
  const std::string json = read_text(folder / "summary.json");
  CHECK(json.find("\"format\":\"msprof-replay-result\"") != std::string::npos);
  CHECK(json.find("\"program_source\":\"source\"") != std::string::npos);
  std::string out, err;
  CHECK(run_command("python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
                    "assert len(d[\"ranges\"][0][\"kernels\"]) == 5' " +
                        quoted(folder / "summary.json"),
                    out, err) == 0);
}

TEST_CASE("--format csv and json, kernel mode, every range") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  const Run csv = replay(quoted(dir / "t.fb") + kFast + " --format csv --replay-mode kernel " +
                         "--output " + quoted(dir / "a"));
  INFO(csv.err);
  REQUIRE(csv.status == 0);
  CHECK(csv.out.rfind("kind,range,status,", 0) == 0);
  CHECK(csv.out.find("range,svm,skipped,") != std::string::npos);
  CHECK(csv.out.find("not replayable: clEnqueueSVMMap") != std::string::npos);
  CHECK(csv.out.find("kernel,inplace,replayed,0,0,scale,scale_5,") != std::string::npos);

  const Run json = replay(quoted(dir / "t.fb") + kFast + " --format json --verify each --output " +
                          quoted(dir / "b"));
  REQUIRE(json.status == 0);
  CHECK(json.out == read_text(only_result(dir / "b") / "summary.json"));
  CHECK(json.out.find("\"verify\":\"each\"") != std::string::npos);
}

// The "thread_control" and "thread_placement" of a summary.json.
std::pair<std::string, std::string> thread_fields(const std::string& json) {
  const auto field = [&](const std::string& key) {
    const auto at = json.find("\"" + key + "\":\"");
    if (at == std::string::npos) return std::string("(absent)");
    const auto begin = at + key.size() + 4;
    return json.substr(begin, json.find('"', begin) - begin);
  };
  return {field("thread_control"), field("thread_placement")};
}

TEST_CASE("--thread-control pins a CPU device's worker threads one per core, or leaves them") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  const std::string args = quoted(dir / "t.fb") + kFast + " --include range1 --format json";
  const Run devices = replay("--list-devices");
  // Pinning is PoCL's (POCL_AFFINITY); on a one-CPU host every thread is
  // "pinned" and there is nothing to tell apart, and a test run itself
  // restricted to some CPUs is never pinned.
  const bool pocl_cpu =
      devices.out.rfind("0  pthread-", 0) == 0 || devices.out.rfind("0  cpu-", 0) == 0;
  if (!pocl_cpu || std::thread::hardware_concurrency() < 2 ||
      !msprof::replay::opencl::may_use_every_cpu()) {
    MESSAGE("device 0 is not a PoCL CPU device on a host of several CPUs all ours: not checked");
    return;
  }
  const Run pinned = replay(args + " --output " + quoted(dir / "a"));
  REQUIRE(pinned.status == 0);
  const auto [control, placement] = thread_fields(pinned.out);
  CHECK(control == "pin");
  CHECK(placement.find("pinned one per core") != std::string::npos);
  const Run table =
      replay(quoted(dir / "t.fb") + kFast + " --include range1 --output " + quoted(dir / "b"));
  CHECK(table.out.find("\ndevice threads: ") != std::string::npos);

  const Run free = replay(args + " --thread-control none --output " + quoted(dir / "c"));
  REQUIRE(free.status == 0);
  CHECK(thread_fields(free.out) ==
        std::pair<std::string, std::string>{
            "none", "worker threads placed by the OS (thread control none)"});

  // What the user's environment says stands when the option is not given,
  // and the option overrides it.
  const Run from_env = replay(args + " --output " + quoted(dir / "d"), "POCL_AFFINITY=0 ");
  REQUIRE(from_env.status == 0);
  CHECK(thread_fields(from_env.out).first == "none");
  const Run overridden =
      replay(args + " --thread-control pin --output " + quoted(dir / "e"), "POCL_AFFINITY=0 ");
  REQUIRE(overridden.status == 0);
  CHECK(thread_fields(overridden.out).second.find("pinned one per core") != std::string::npos);
  // Read as PoCL reads it: only a leading '1' asks for pinning.
  const Run not_one = replay(args + " --output " + quoted(dir / "f"), "POCL_AFFINITY=yes ");
  REQUIRE(not_one.status == 0);
  CHECK(thread_fields(not_one.out).first == "none");

  // PoCL would pin its workers to CPUs 0 to n-1 even where the process may
  // not run (and end it where a cpuset refuses): restricted, nothing is
  // pinned, and the result says why.
  const Run restricted = replay(args + " --output " + quoted(dir / "g"), "taskset -c 1 ");
  INFO(restricted.err);
  REQUIRE(restricted.status == 0);
  const auto [asked, where] = thread_fields(restricted.out);
  CHECK(asked == "pin");
  CHECK(where.find("taskset or a cpuset") != std::string::npos);
}

TEST_CASE("--list prints the ranges and their statuses") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  const Run r = replay(quoted(dir / "t.fb") + " --list");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("range1") != std::string::npos);
  CHECK(r.out.find("ignored") != std::string::npos);
  CHECK(r.out.find("opened inside range1") != std::string::npos);
  CHECK(count_lines(r.out) == 1 + 5);
}

TEST_CASE("a wrong final state fails the replay") {
  TempDir dir;
  SyntheticOptions options;
  options.wrong_final_state = true;
  msprof::test::write_synthetic_trace(dir / "t.fb", options);
  const Run r =
      replay(quoted(dir / "t.fb") + kFast + " --include range1 --output " + quoted(dir.path()));
  INFO(r.out);
  CHECK(r.status == 3);
  CHECK(r.out.find("buffer 18 (e, float32): differs in pass 0: first index 7, 1 of 1024 elements "
                   "differ, max abs 1") != std::string::npos);
  CHECK(r.err.find("differs from its recorded final state") != std::string::npos);
  // Without verification the same replay passes.
  CHECK(replay(quoted(dir / "t.fb") + kFast + " --verify off --output " + quoted(dir.path()))
            .status == 0);
}

TEST_CASE(
    "a range that does not fit fails before it starts, saying what it needs and the way out") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  const Run r = replay(quoted(dir / "t.fb") + kFast +
                       " --include range1 --memory-limit 16K --output " + quoted(dir.path()));
  INFO(r.out);
  INFO(r.err);
  CHECK(r.status == 2);  // nothing replayed
  CHECK(r.out.find("range1: failed, the range does not fit: it needs 40 KiB of host memory (32 KiB "
                   "of buffers, 8 KiB of host data), --memory-limit allows 16 KiB, or raise "
                   "--memory-limit") != std::string::npos);
  // Within the limit, with the written buffers restored from the trace.
  const Run fits =
      replay(quoted(dir / "t.fb") + kFast +
             " --include range1 --memory-limit 41K --format json --output " + quoted(dir.path()));
  INFO(fits.out);
  CHECK(fits.status == 0);
  CHECK(fits.out.find("\"copies_bytes\":64,\"trace_bytes\":24576") != std::string::npos);
  CHECK(fits.out.find("\"restore\":\"auto\"") != std::string::npos);
}

TEST_CASE("nothing replayable is a failure") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  const Run r = replay(quoted(dir / "t.fb") + kFast + " --include 'svm|nested|cut' --output " +
                       quoted(dir.path()));
  CHECK(r.status == 2);
  CHECK(r.out.find("svm: skipped, not replayable: clEnqueueSVMMap") != std::string::npos);
  CHECK(r.out.find("cut: skipped, truncated") != std::string::npos);
}

TEST_CASE("a trace recorded with the program killed replays its completed range") {
  TempDir dir;
  SyntheticOptions options;
  options.killed = true;
  msprof::test::write_synthetic_trace(dir / "t.fb", options);
  REQUIRE(msprof::trace::TraceReader(dir / "t.fb").recovered());
  const Run r =
      replay(quoted(dir / "t.fb") + kFast + " --include range1 --output " + quoted(dir.path()));
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.err.find("msprof-replay: warning: ") != std::string::npos);
  CHECK(r.out.find("bit-exact") != std::string::npos);
}

TEST_CASE("a trace from another device replays on the first device with a note") {
  TempDir dir;
  SyntheticOptions options;
  options.device_name = "Imaginary GPU 9000";
  options.with_binaries = true;
  msprof::test::write_synthetic_trace(dir / "t.fb", options);
  const Run r = replay(quoted(dir / "t.fb") + kFast + " --include range1 --format json " +
                       "--output " + quoted(dir.path()));
  CHECK(r.status == 0);
  CHECK(r.err.find("recorded on 'Imaginary GPU 9000'") != std::string::npos);
  CHECK(r.out.find("\"program_source\":\"source\"") != std::string::npos);
  CHECK(
      replay(quoted(dir / "t.fb") + kFast + " --device 0 --output " + quoted(dir.path())).status ==
      0);
}

TEST_CASE("errors are one line and a non-zero exit") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  check_one_line_error(replay(quoted(dir / "missing.fb")), "missing.fb");
  {
    std::ofstream(dir / "text.fb") << "this is not a trace, just some text long enough\n";
    check_one_line_error(replay(quoted(dir / "text.fb")), "not an msprof-replay trace");
  }
  {
    // Damage the range record: the index is intact, the checksum is not.
    std::uint64_t offset = 0;
    {
      const msprof::trace::TraceReader reader(dir / "t.fb");
      for (const auto& e : reader.records()) {
        if (std::holds_alternative<msprof::trace::Range>(reader.read_record(e))) {
          offset = e.offset + e.frame_size / 2;
        }
      }
    }
    REQUIRE(offset != 0);
    fs::copy_file(dir / "t.fb", dir / "damaged.fb");
    std::fstream f(dir / "damaged.fb", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.put('\x5a').put('\xa5').put('\x5a');
    f.close();
    check_one_line_error(replay(quoted(dir / "damaged.fb") + kFast), "fails its checksum");
  }
  check_one_line_error(replay(quoted(dir / "t.fb") + " --include foo"), "no range named 'foo' in");
  check_one_line_error(replay(quoted(dir / "t.fb") + " --include foo"), "ranges: 'range1', ");
  check_one_line_error(replay(quoted(dir / "t.fb") + " --device 'no such device'"),
                       "no device 'no such device'; devices: 0 '");
  check_one_line_error(replay(quoted(dir / "t.fb") + " --device 99"), "no device '99'");
  check_one_line_error(replay(quoted(dir / "t.fb") + " --replay-mode graph"), "--replay-mode");
  check_one_line_error(replay(quoted(dir / "t.fb") + " --thread-control spread"),
                       "--thread-control");
  check_one_line_error(replay(""), "no trace given");
  {
    // A bad --output is said alone, before anything else is printed.
    std::ofstream(dir / "a_file") << "x";
    const auto file = replay(quoted(dir / "t.fb") + kFast + " --output " + quoted(dir / "a_file"));
    check_one_line_error(file, "is a file, not a folder");
    CHECK(file.out.empty());
    const auto below =
        replay(quoted(dir / "t.fb") + kFast + " --output " + quoted(dir / "a_file" / "sub"));
    check_one_line_error(below, "is a file, not a folder");
  }
  // A name that looks like an option is taken as the value after '='.
  check_one_line_error(replay(quoted(dir / "t.fb") + " --include=-rf"), "no range named '-rf' in");
  {
    // Excluding every range: no result folder, one line, a failure.
    fs::create_directory(dir / "excluded");
    const auto none = replay(quoted(dir / "t.fb") + kFast + " --exclude '*' --output " +
                             quoted(dir / "excluded"));
    CHECK(none.status == 2);
    CHECK(count_lines(none.err) == 1);
    CHECK(none.err.find("msprof-replay: error: no range selected: --exclude leaves none") == 0);
    CHECK(fs::is_empty(dir / "excluded"));
  }
  {
    // A program that annotated a range but made no OpenCL call.
    msprof::trace::TraceWriter w(dir / "none.fb");
    msprof::trace::TraceInfo info;
    info.schema_version = msprof::trace::kSchemaVersion;
    info.min_reader_version = msprof::trace::kMinReaderVersion;
    info.api = "none";
    w.write(info);
    msprof::trace::Range range;
    range.id = 1;
    range.name = "a";
    w.write(range);
    w.close();
    check_one_line_error(replay(quoted(dir / "none.fb")), "holds no device work");
  }
}

TEST_CASE("--list-devices needs no trace") {
  const Run r = replay("--list-devices");
  CHECK(r.status == 0);
  CHECK(r.out.rfind("0  ", 0) == 0);
}

TEST_CASE("bad option values are refused with one line: sizes, empty names, tolerances") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  const std::string t = quoted(dir / "t.fb") + " --output " + quoted(dir.path());
  check_one_line_error(replay(t + " --cache-size -5"), "--cache-size '-5' is not a size");
  check_one_line_error(replay(t + " --cache-size 0"), "is not a size");
  check_one_line_error(replay(t + " --include ''"), "--include '' names no range");
  check_one_line_error(replay(t + " --exclude '|'"), "--exclude '|' names no range");
  check_one_line_error(replay(t + " --tolerance -1"), "is not ATOL[,RTOL]");
  check_one_line_error(replay(t + " --tolerance 1e-3,x"), "is not ATOL[,RTOL]");
  check_one_line_error(replay(quoted(dir / "t.fb") + " --output ''"),
                       "--output '' names no folder");
  check_one_line_error(replay(t + " --restore some"), "--restore: some not in {auto,copy,trace}");
  check_one_line_error(replay(t + " --memory-limit lots"), "--memory-limit 'lots' is not a size");
  // Nothing was replayed, so no result folder was made.
  CHECK(std::none_of(
      fs::directory_iterator(dir.path()), fs::directory_iterator(),
      [](const auto& e) { return e.path().filename().string().rfind("OPPROF_", 0) == 0; }));
  const Run version = replay("--version");
  CHECK(version.status == 0);
  CHECK(version.out.rfind("msprof-replay ", 0) == 0);
}

TEST_CASE("a range's name reaches the table and errors escaped") {
  TempDir dir;
  msprof::test::SyntheticOptions options;
  options.range1_name = "\x1b[31mred\x1b[0m\nnext";
  msprof::test::write_synthetic_trace(dir / "t.fb", options);
  const auto r = replay(quoted(dir / "t.fb") + kFast + " --output " + quoted(dir.path()));
  CHECK(r.status == 0);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.out.find("\\x1b[31mred\\x1b[0m\\nnext") != std::string::npos);
  const auto missing = replay(quoted(dir / "t.fb") + " --include 'x\x1b[0m'");
  check_one_line_error(missing, "no range named 'x\\x1b[0m'");
  CHECK(missing.err.find('\x1b') == std::string::npos);
}

TEST_CASE("a replay onto a full disk fails in one line and leaves no result folder") {
  TempDir dir;
  msprof::test::write_synthetic_trace(dir / "t.fb");
  msprof::test::SmallDisk disk(20);
  if (!disk.mounted()) return disk.skip();
  disk.fill(0);
  const Run r = replay(quoted(dir / "t.fb") + " --include range1" + kFast + " --output " +
                       quoted(disk.path()));
  CAPTURE(r.err);
  // After the range's progress line, the error alone, as the last line.
  CHECK(r.status == 1);
  const auto last = r.err.rfind('\n', r.err.size() - 2);
  const std::string error = r.err.substr(last == std::string::npos ? 0 : last + 1);
  CHECK(error.rfind("msprof-replay: error: cannot write ", 0) == 0);
  CHECK(error.find("free space") != std::string::npos);
  CHECK(r.err.find("error") == r.err.find("msprof-replay: error: ") + 15);
  CHECK(disk.files().empty());
}
