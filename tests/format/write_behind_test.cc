#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

namespace {

// Pages of [0, size) of the file that are in the page cache.
std::size_t resident_pages(const std::filesystem::path& path, std::size_t size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  REQUIRE(map != MAP_FAILED);
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((size + page - 1) / page);
  REQUIRE(::mincore(map, size, in_core.data()) == 0);
  ::munmap(map, size);
  std::size_t n = 0;
  for (const unsigned char c : in_core) n += c & 1;
  return n;
}

}  // namespace

TEST_CASE("a large trace is handed to the disk as it is written, not left in the page cache") {
  TempDir dir;
  struct statfs fs {};
  REQUIRE(::statfs(dir.path().c_str(), &fs) == 0);
  if (fs.f_type == TMPFS_MAGIC) return;  // memory is its only storage

  // Random bytes: stored as they are, so the file is as large as the data.
  std::vector<std::byte> data(160ull << 20);
  std::mt19937_64 rng(7);
  for (std::size_t i = 0; i + 8 <= data.size(); i += 8) {
    const std::uint64_t v = rng();
    std::memcpy(data.data() + i, &v, 8);
  }
  TraceWriter::Options options;
  options.compression_level = 1;
  const auto path = dir / "large.fb";
  BlobRef ref;
  {
    TraceWriter writer(path, options);
    ref = writer.put_blob(data);
    writer.close();
  }
  // The first 64 MiB are far behind the end: written back and dropped.
  const std::size_t early = 64ull << 20;
  CHECK(resident_pages(path, early) <
        early / static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) / 10);
  // What was dropped reads back from the disk unchanged.
  TraceReader reader(path);
  CHECK(reader.read_blob(ref) == data);
}
