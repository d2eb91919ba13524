// msprof-record onto a small file system that fills up: a non-zero status,
// one line saying what the trace lost, and never a broken trace or a
// .partial file left as the result. The file system is a 20 MiB tmpfs the
// test mounts (root, as the test command runs).
#include <doctest/doctest.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "format/trace_reader.h"
#include "tests/recorder/record_run.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::record;
using msprof::test::TempDir;

namespace {

// A tmpfs of `mib` MiB under a fresh folder, unmounted at the end.
class SmallDisk {
 public:
  explicit SmallDisk(int mib) : path_(dir_ / "disk") {
    std::filesystem::create_directory(path_);
    const std::string options = "size=" + std::to_string(mib) + "m";
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) == 0;
    if (!mounted_) why_ = std::strerror(errno);
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool mounted() const { return mounted_; }
  const std::string& why() const { return why_; }
  const std::filesystem::path& path() const { return path_; }
  // Fills the disk with a file until `leave` bytes or fewer are free.
  void fill(std::uint64_t leave) {
    std::ofstream out(path_ / "filler", std::ios::binary);
    const std::vector<char> block(4096, 'x');
    while (std::filesystem::space(path_).available > leave) {
      if (!out.write(block.data(), block.size()) || !out.flush()) break;
    }
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path_)) {
      if (e.path().filename() != "filler") out.push_back(e.path().filename().string());
    }
    return out;
  }

 private:
  TempDir dir_;
  std::filesystem::path path_;
  bool mounted_ = false;
  std::string why_;
};

test::RunResult record_onto(const SmallDisk& disk, const std::vector<std::string>& program) {
  // Run elsewhere: the run's own captured output must not count as the
  // recorder's files on the disk, nor take its space.
  const TempDir cwd;
  return record({"-o", (disk.path() / "t.fb").string()}, program, cwd.path());
}

void skip(const SmallDisk& disk) {
  const std::string why = "cannot mount a tmpfs (" + disk.why() + "); this case is not run";
  MESSAGE(why);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a full disk: the trace keeps what fitted, and the status says ranges were lost") {
  SmallDisk disk(20);
  if (!disk.mounted()) return skip(disk);
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
  if (!disk.mounted()) return skip(disk);
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
  if (!disk.mounted()) return skip(disk);
  disk.fill(100 << 10);
  const auto rec = record_onto(disk, {MSPROF_DYING_PROGRAM_EXE, "many", "6", "3"});
  CAPTURE(rec.err);
  CHECK(rec.exit_code == 3);
  CHECK(has(rec.err, "(the program exited with status 3)"));
  CHECK(has(rec.err, "no trace written, and the 6 range(s) the program finished are lost"));
  CHECK(disk.files().empty());
}
