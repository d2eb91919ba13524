// msprof-record onto a small file system that fills up: a non-zero status,
// one line saying what the trace lost, and never a broken trace or a
// .partial file left as the result. The file system is a 20 MiB tmpfs the
// test mounts (root, as the test command runs).
#include <doctest/doctest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "format/trace_reader.h"
#include "tests/recorder/record_run.h"
#include "tests/support/small_disk.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::record;
using msprof::test::SmallDisk;
using msprof::test::TempDir;

namespace {

test::RunResult record_onto(const SmallDisk& disk, const std::vector<std::string>& program) {
  // Run elsewhere: the run's own captured output must not count as the
  // recorder's files on the disk, nor take its space.
  const TempDir cwd;
  return record({"-o", (disk.path() / "t.fb").string()}, program, cwd.path());
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a full disk: the trace keeps what fitted, and the status says ranges were lost") {
  SmallDisk disk(20);
  if (!disk.mounted()) return disk.skip();
  // 6 ranges of 8 MiB of random bytes each: more than 20 MiB can hold.
  const auto rec = record_onto(disk, {MSPROF_DYING_PROGRAM_EXE, "many", "6"});
  CAPTURE(rec.err);
  CHECK(rec.exit_code == 1);
  CHECK(has(rec.err, "msprof-record: error: no space left on the device of "));
  CHECK(has(rec.err, " of the 6 range(s) the program finished"));
  CHECK_FALSE(std::filesystem::exists(disk.path() / "t.fb.partial"));
  if (std::filesystem::exists(disk.path() / "t.fb")) {
    // What is left opens by its index and holds fewer than 6 ranges.
    const trace::TraceReader reader(disk.path() / "t.fb");
    CHECK_FALSE(reader.recovered());
    CHECK(reader.read_all<trace::Range>().size() < 6);
  } else {
    CHECK(has(rec.err, "no trace written, and the 6 range(s) the program finished are lost"));
  }
}

TEST_CASE("a disk full from the start: refused before the program runs, nothing left") {
  SmallDisk disk(20);
  if (!disk.mounted()) return disk.skip();
  disk.fill(0);
  const auto rec = record_onto(disk, {MSPROF_DYING_PROGRAM_EXE, "never", "exit"});
  CAPTURE(rec.err);
  CHECK(rec.exit_code == 1);
  CHECK(rec.out.empty());
  CHECK(has(rec.err, "msprof-record: error: no space left on the device of "));
  CHECK(has(rec.err, "free space there or choose another file with -o"));
  CHECK(disk.files().empty());
}

TEST_CASE("a disk with 100 KB left: the program's own status, and no broken trace") {
  SmallDisk disk(20);
  if (!disk.mounted()) return disk.skip();
  disk.fill(100 << 10);
  const auto rec = record_onto(disk, {MSPROF_DYING_PROGRAM_EXE, "many", "6", "3"});
  CAPTURE(rec.err);
  CHECK(rec.exit_code == 3);
  CHECK(has(rec.err, "(the program exited with status 3)"));
  CHECK(has(rec.err, "no trace written, and the 6 range(s) the program finished are lost"));
  CHECK(disk.files().empty());
}
