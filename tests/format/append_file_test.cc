#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/append_file.h"
#include "tests/format/sample_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

namespace {

std::vector<std::byte> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> chars((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  std::memcpy(out.data(), chars.data(), chars.size());
  return out;
}

}  // namespace

TEST_CASE("appended pieces of every size are in the file in order, whatever the flushes") {
  TempDir dir;
  const auto path = dir / "f.bin";
  std::mt19937 rng(11);
  std::vector<std::byte> expected;
  {
    AppendFile file(path);
    for (int i = 0; i < 40; ++i) {
      // From nothing to past two stages, so pieces start and end anywhere in one.
      const std::size_t size =
          rng() % 4 == 0 ? rng() % (2 * AppendFile::kStageSize + 4097) : rng() % 10000;
      const auto piece = msprof::test::pattern_bytes(size, static_cast<unsigned>(i));
      file.append(piece);
      expected.insert(expected.end(), piece.begin(), piece.end());
      CHECK(file.size() == expected.size());
      if (rng() % 3 == 0) {
        file.flush();
        CHECK(file_bytes(path) == expected);
      }
    }
  }
  // Closing writes the rest.
  CHECK(file_bytes(path) == expected);
}

TEST_CASE("full stages bypass the page cache where the file system allows it") {
  TempDir dir;
  struct statfs fs {};
  REQUIRE(::statfs(dir.path().c_str(), &fs) == 0);
  const auto path = dir / "f.bin";
  AppendFile file(path);
  const auto data = msprof::test::pattern_bytes(3 * AppendFile::kStageSize + 123, 5);
  file.append(data);
  file.flush();
  // ext4 and xfs take direct I/O: falling back there would be a defect.
  if (fs.f_type == EXT4_SUPER_MAGIC || fs.f_type == XFS_SUPER_MAGIC) CHECK(file.direct());
  CHECK(file_bytes(path) == data);
}

TEST_CASE("a flush of part of a stage keeps its whole blocks out of the page cache") {
  TempDir dir;
  struct statfs fs {};
  REQUIRE(::statfs(dir.path().c_str(), &fs) == 0);
  if (fs.f_type != EXT4_SUPER_MAGIC && fs.f_type != XFS_SUPER_MAGIC) return;
  const auto path = dir / "f.bin";
  AppendFile file(path);
  // Two flushes, the second starting inside the block where the first ended.
  const auto data = msprof::test::pattern_bytes((1u << 20) + 123, 7);
  file.append(std::span(data).first(300000));
  file.flush();
  file.append(std::span(data).subspan(300000));
  file.flush();
  REQUIRE(file.direct());
  CHECK(file_bytes(path) == data);
  // Reading the file above brought it into the cache: drop what is clean,
  // then see what a flush leaves there.
  const int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  file.append(msprof::test::pattern_bytes(2u << 20, 8));
  file.flush();
  const long page = ::sysconf(_SC_PAGESIZE);
  const std::size_t size = static_cast<std::size_t>(file.size());
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  REQUIRE(map != MAP_FAILED);
  std::vector<unsigned char> resident((size + page - 1) / page);
  REQUIRE(::mincore(map, size, resident.data()) == 0);
  std::size_t cached = 0;
  for (unsigned char r : resident) cached += r & 1;
  // The tail of the first append's last block, which the second flush
  // rewrote direct, may linger; the 2 MiB of whole blocks may not.
  CHECK(cached <= 2);
  ::munmap(map, size);
  ::close(fd);
}

TEST_CASE("a process that dies leaves exactly what it flushed") {
  TempDir dir;
  const auto path = dir / "f.bin";
  const auto flushed =
      msprof::test::pattern_bytes(AppendFile::kStageSize + AppendFile::kStageSize / 2, 1);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // No destructor runs: as if the program were killed after this.
    auto* file = new AppendFile(path);
    file->append(flushed);
    file->flush();
    file->append(msprof::test::pattern_bytes(1000, 2));
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(file_bytes(path) == flushed);
}
