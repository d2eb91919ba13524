#include "replayer/perf/group_read.h"

#include <doctest/doctest.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "replayer/core/replay_error.h"
#include "replayer/perf/perf_event_fd.h"
#include "tests/perf/perf_allowed.h"
#include "tests/perf/worker_threads.h"

namespace msprof::replay::perf {
namespace {

const PerfEvent kTaskClock{"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK};
const PerfEvent kPageFaults{"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS};

TEST_CASE("decode_group_read reads the bytes the kernel gave for a real group") {
  if (!test::software_counters_allowed()) return;
  OpenedEvent leader = open_perf_event(kTaskClock, 0, -1);
  REQUIRE(leader.fd.valid());
  OpenedEvent member = open_perf_event(kPageFaults, 0, leader.fd.get());
  REQUIRE(member.fd.valid());
  const std::uint64_t leader_id = perf_event_id(leader.fd, kTaskClock);
  const std::uint64_t member_id = perf_event_id(member.fd, kPageFaults);
  CHECK(leader_id != member_id);

  constexpr std::size_t kPages = 64;
  REQUIRE(::ioctl(leader.fd.get(), PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0);
  test::touch_fresh_pages(kPages);
  REQUIRE(::ioctl(leader.fd.get(), PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) == 0);

  // Room to spare: the kernel writes what the group holds and says so.
  std::vector<std::byte> bytes(group_read_size(2) + 64);
  const ssize_t got = ::read(leader.fd.get(), bytes.data(), bytes.size());
  REQUIRE(got == static_cast<ssize_t>(group_read_size(2)));
  bytes.resize(static_cast<std::size_t>(got));

  const GroupRead read = decode_group_read(bytes);
  REQUIRE(read.members.size() == 2);
  CHECK(read.members[0].id == leader_id);
  CHECK(read.members[1].id == member_id);
  CHECK(read.members[0].count > 0);  // nanoseconds on the CPU
  CHECK(read.members[1].count >= kPages);
  CHECK(read.members[1].count < kPages + 64);
  CHECK(read.time_enabled_ns > 0);
  // Software counters never wait for a hardware counter.
  CHECK(read.time_running_ns == read.time_enabled_ns);

  SUBCASE("bytes that are not a group read are refused") {
    const std::span<const std::byte> all(bytes);
    CHECK_THROWS_AS(decode_group_read(all.first(all.size() - 8)), DeviceError);
    CHECK_THROWS_AS(decode_group_read(all.first(all.size() - 16)), DeviceError);
    CHECK_THROWS_AS(decode_group_read(all.first(16)), DeviceError);
    CHECK_THROWS_AS(decode_group_read(all.first(0)), DeviceError);
    std::vector<std::byte> lying = bytes;
    const std::uint64_t three = 3;
    std::memcpy(lying.data(), &three, sizeof three);
    CHECK_THROWS_WITH_AS(decode_group_read(lying), doctest::Contains("holds 3 counters"),
                         DeviceError);
    const std::uint64_t huge = ~std::uint64_t{0} / 2;
    std::memcpy(lying.data(), &huge, sizeof huge);
    CHECK_THROWS_AS(decode_group_read(lying), DeviceError);
  }
}

GroupRead group(std::uint64_t enabled, std::uint64_t running, std::uint64_t first,
                std::uint64_t second) {
  return {.time_enabled_ns = enabled,
          .time_running_ns = running,
          .members = {{.id = 7, .count = first}, {.id = 9, .count = second}}};
}

TEST_CASE("group_interval: what a group counted between two reads, scaled when multiplexed") {
  SUBCASE("on the PMU all along: the difference as it is") {
    const auto interval =
        group_interval(group(100, 100, 10, 20), group(300, 300, 110, 220), {9, 7});
    CHECK(interval.counts == std::vector<double>{200, 100});
    CHECK_FALSE(interval.multiplexed);
    CHECK_FALSE(interval.unscheduled);
  }
  SUBCASE("on the PMU half the time: doubled, and said so") {
    const auto scaled = group_interval(group(0, 0, 0, 0), group(200, 100, 50, 30), {7, 9});
    CHECK(scaled.counts == std::vector<double>{100, 60});
    CHECK(scaled.multiplexed);
  }
  SUBCASE("a thread that did not run counts zero, unscaled") {
    const auto interval = group_interval(group(50, 40, 5, 5), group(50, 40, 5, 5), {7, 9});
    CHECK(interval.counts == std::vector<double>{0, 0});
    CHECK_FALSE(interval.multiplexed);
    CHECK_FALSE(interval.unscheduled);
  }
  SUBCASE("never on the PMU while it ran: unknown, not zero") {
    const auto interval = group_interval(group(50, 40, 5, 5), group(90, 40, 5, 5), {7, 9});
    CHECK(interval.unscheduled);
  }
  SUBCASE("a missing id or a count going backwards is an error") {
    CHECK_THROWS_AS(group_interval(group(0, 0, 0, 0), group(1, 1, 1, 1), {8}), DeviceError);
    CHECK_THROWS_AS(group_interval(group(0, 0, 5, 0), group(1, 1, 1, 1), {7}), DeviceError);
    CHECK_THROWS_AS(group_interval(group(5, 5, 0, 0), group(1, 1, 1, 1), {7}), DeviceError);
  }
}

}  // namespace
}  // namespace msprof::replay::perf
