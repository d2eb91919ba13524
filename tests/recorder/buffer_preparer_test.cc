#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "recorder/core/buffer_preparer.h"
#include "tests/support/eventually.h"

using msprof::record::BufferPreparer;

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

bool wait_ready(const BufferPreparer& p, std::size_t count) {
  return msprof::test::eventually([&] { return p.ready_count() >= count; });
}

// Whether every page of the bytes is in memory, without touching them.
bool resident(const std::vector<std::byte>& bytes) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data()) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(bytes.data() + bytes.size());
  std::vector<unsigned char> pages((end - begin + page - 1) / page);
  if (::mincore(reinterpret_cast<void*>(begin), end - begin, pages.data()) != 0) return false;
  for (const unsigned char p : pages) {
    if ((p & 1) == 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("prepared buffers are faulted in, full size, and taken smallest fit first") {
  BufferPreparer preparer(BufferPreparer::Priority::Normal);
  CHECK(preparer.take(1).has_value() == false);
  preparer.prepare({1 * kMiB, 3 * kMiB, 2 * kMiB});
  CHECK(preparer.pending_bytes() == 6 * kMiB);
  REQUIRE(wait_ready(preparer, 3));

  auto b = preparer.take(2 * kMiB + 1);
  REQUIRE(b.has_value());
  CHECK(b->size() == 3 * kMiB);
  CHECK(resident(*b));
  CHECK(preparer.pending_bytes() == 3 * kMiB);
  auto a = preparer.take(1);
  REQUIRE(a.has_value());
  CHECK(a->size() == 1 * kMiB);
  CHECK(resident(*a));
  auto c = preparer.take(1);
  REQUIRE(c.has_value());
  CHECK(c->size() == 2 * kMiB);
  CHECK(preparer.take(1).has_value() == false);
  CHECK(preparer.pending_bytes() == 0);
  CHECK(preparer.ready_count() == 0);
}

TEST_CASE("a new preparation hands back what the last one faulted in and nobody took") {
  BufferPreparer preparer(BufferPreparer::Priority::Normal);
  preparer.prepare({1 * kMiB, 1 * kMiB});
  REQUIRE(wait_ready(preparer, 2));
  CHECK(preparer.take(1 * kMiB).has_value());
  const auto returned = preparer.prepare({4 * kMiB});
  REQUIRE(returned.size() == 1);
  CHECK(returned[0].size() == 1 * kMiB);
  CHECK(preparer.pending_bytes() == 4 * kMiB);
  REQUIRE(wait_ready(preparer, 1));
  CHECK(preparer.take(4 * kMiB).has_value());
}

TEST_CASE("cancelled preparations, picked up or not, are freed once the thread lets go") {
  // Under ASan, freeing a batch the thread still fills is a use after free.
  BufferPreparer preparer(BufferPreparer::Priority::Normal);
  for (int i = 0; i < 20; ++i) {
    preparer.prepare({16 * kMiB, 16 * kMiB});
    if (i % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  preparer.cancel();
  CHECK(preparer.pending_bytes() == 0);
  CHECK(preparer.ready_count() == 0);
  CHECK(preparer.take(1).has_value() == false);
  preparer.prepare({2 * kMiB});
  REQUIRE(wait_ready(preparer, 1));
  CHECK(preparer.take(2 * kMiB)->size() == 2 * kMiB);
}

TEST_CASE("the preparer's thread runs only on idle CPU (SCHED_IDLE)") {
  BufferPreparer preparer;
  // Named and lowered by the thread itself: wait until it has done both.
  const auto lowered = [] {
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      std::string comm;
      std::getline(std::ifstream(task.path() / "comm"), comm);
      if (comm != "msprof-prepare") continue;
      const pid_t tid = std::stoi(task.path().filename().string());
      if (::sched_getscheduler(tid) == SCHED_IDLE) return true;
    }
    return false;
  };
  CHECK(msprof::test::eventually(lowered));
}
