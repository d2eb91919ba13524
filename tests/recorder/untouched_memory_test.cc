#include <doctest/doctest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <vector>

#include "recorder/core/untouched_memory.h"

using msprof::record::untouched_chunks;

namespace {

constexpr std::size_t kChunk = 1 << 20;

// An anonymous private mapping of `chunks` chunks, unmapped at the end.
struct Mapping {
  explicit Mapping(std::size_t chunks) : size(chunks * kChunk) {
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    bytes = static_cast<std::byte*>(p);
    // Huge pages would make a touch in one chunk present pages of another.
    ::madvise(bytes, size, MADV_NOHUGEPAGE);
  }
  ~Mapping() { ::munmap(bytes, size); }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  std::byte* bytes = nullptr;
  std::size_t size = 0;
};

}  // namespace

TEST_CASE("chunks never touched are told apart from written and read ones, without reading") {
  Mapping m(4);
  m.bytes[kChunk + 5] = std::byte{1};                 // chunk 1 written
  volatile std::byte seen = m.bytes[2 * kChunk + 7];  // chunk 2 read: the zero page is mapped
  (void)seen;
  CHECK(untouched_chunks(m.bytes, m.size, kChunk) == std::vector<bool>{true, false, false, true});
  // Given back to the kernel, chunk 1 is untouched (zeros) again.
  REQUIRE(::madvise(m.bytes + kChunk, kChunk, MADV_DONTNEED) == 0);
  CHECK(untouched_chunks(m.bytes, m.size, kChunk) == std::vector<bool>{true, true, false, true});
  // Only whole chunks: a region of 2.5 chunks has two, and one shorter than
  // a chunk none to judge.
  CHECK(untouched_chunks(m.bytes, 2 * kChunk + kChunk / 2, kChunk).size() == 2);
  CHECK(untouched_chunks(m.bytes, kChunk / 2, kChunk).empty());
  // A chunk that shares a page with a touched byte before it is not untouched.
  const long page = ::sysconf(_SC_PAGESIZE);
  m.bytes[3 * kChunk - 1] = std::byte{2};
  const auto shifted = untouched_chunks(m.bytes + 3 * kChunk - page / 2, kChunk, kChunk);
  CHECK(shifted == std::vector<bool>{false});
}

TEST_CASE("memory of a file is never judged untouched: its pages not in memory hold the file") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  const int fd = ::fileno(f);
  REQUIRE(::ftruncate(fd, 2 * kChunk) == 0);
  void* p = ::mmap(nullptr, 2 * kChunk, PROT_READ, MAP_PRIVATE, fd, 0);
  REQUIRE(p != MAP_FAILED);
  CHECK(untouched_chunks(p, 2 * kChunk, kChunk).empty());
  ::munmap(p, 2 * kChunk);
  std::fclose(f);
}

TEST_CASE("shared anonymous memory is not judged either") {
  void* p = ::mmap(nullptr, 2 * kChunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  REQUIRE(p != MAP_FAILED);
  CHECK(untouched_chunks(p, 2 * kChunk, kChunk).empty());
  ::munmap(p, 2 * kChunk);
}
