#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace msprof::replay::perf {

// What read() of a group leader opened by open_perf_event gives: the
// group's times enabled and running, and each member's count with its id,
// leader first.
struct GroupRead {
  struct Member {
    std::uint64_t id = 0;
    std::uint64_t count = 0;
  };
  std::uint64_t time_enabled_ns = 0;
  std::uint64_t time_running_ns = 0;
  std::vector<Member> members;
};

// The bytes a read of a group of `members` counters gives.
std::size_t group_read_size(std::size_t members);

// Decodes a read() of PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED |
// TOTAL_TIME_RUNNING | ID: u64 nr, time_enabled, time_running, then nr
// pairs of u64 value, id. DeviceError when the bytes are not that.
GroupRead decode_group_read(std::span<const std::byte> bytes);

// What a group counted between two reads of it: each counter of `ids`, in
// that order.
struct GroupInterval {
  std::vector<double> counts;
  // The group shared the PMU with others for part of the interval: the
  // counts are scaled by time enabled over time running, estimates.
  bool multiplexed = false;
  // The thread ran but its group never got onto the PMU: the counts are
  // unknown (all zero here) and must not be taken as zero.
  bool unscheduled = false;
};

// `end` minus `start`, scaled where the kernel multiplexed. A thread that
// did not run in between has nothing enabled and counts zero, unscaled.
// DeviceError when an id of `ids` is missing from either read or a count
// went backwards.
GroupInterval group_interval(const GroupRead& start, const GroupRead& end,
                             const std::vector<std::uint64_t>& ids);

}  // namespace msprof::replay::perf
