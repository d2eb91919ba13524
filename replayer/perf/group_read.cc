#include "replayer/perf/group_read.h"

#include <cstring>
#include <string>

#include "replayer/core/replay_error.h"

namespace msprof::replay::perf {

namespace {

constexpr std::size_t kWord = sizeof(std::uint64_t);

std::uint64_t word_at(std::span<const std::byte> bytes, std::size_t index) {
  std::uint64_t word = 0;
  std::memcpy(&word, bytes.data() + index * kWord, kWord);
  return word;
}

std::uint64_t count_of(const GroupRead& read, std::uint64_t id) {
  for (const auto& member : read.members) {
    if (member.id == id) return member.count;
  }
  throw DeviceError("perf_event_open: a group read lacks the counter with id " +
                    std::to_string(id));
}

}  // namespace

std::size_t group_read_size(std::size_t members) {
  return (3 + 2 * members) * kWord;
}

GroupRead decode_group_read(std::span<const std::byte> bytes) {
  if (bytes.size() < group_read_size(0) || bytes.size() % kWord != 0) {
    throw DeviceError("perf_event_open: a group read gave " + std::to_string(bytes.size()) +
                      " bytes, not a count, two times and (value, id) pairs");
  }
  const std::uint64_t members = word_at(bytes, 0);
  if (members > (bytes.size() - group_read_size(0)) / (2 * kWord) ||
      group_read_size(members) != bytes.size()) {
    throw DeviceError("perf_event_open: a group read of " + std::to_string(bytes.size()) +
                      " bytes says it holds " + std::to_string(members) + " counters");
  }
  GroupRead read;
  read.time_enabled_ns = word_at(bytes, 1);
  read.time_running_ns = word_at(bytes, 2);
  read.members.reserve(members);
  for (std::size_t i = 0; i < members; ++i) {
    read.members.push_back({.id = word_at(bytes, 4 + 2 * i), .count = word_at(bytes, 3 + 2 * i)});
  }
  return read;
}

GroupInterval group_interval(const GroupRead& start, const GroupRead& end,
                             const std::vector<std::uint64_t>& ids) {
  if (end.time_enabled_ns < start.time_enabled_ns || end.time_running_ns < start.time_running_ns) {
    throw DeviceError("perf_event_open: a group's times went backwards between two reads");
  }
  const std::uint64_t enabled = end.time_enabled_ns - start.time_enabled_ns;
  const std::uint64_t running = end.time_running_ns - start.time_running_ns;
  GroupInterval interval;
  interval.unscheduled = enabled > 0 && running == 0;
  interval.multiplexed = running > 0 && running < enabled;
  const double scale =
      interval.multiplexed ? static_cast<double>(enabled) / static_cast<double>(running) : 1.0;
  interval.counts.reserve(ids.size());
  for (const std::uint64_t id : ids) {
    const std::uint64_t before = count_of(start, id);
    const std::uint64_t after = count_of(end, id);
    if (after < before) {
      throw DeviceError("perf_event_open: the counter with id " + std::to_string(id) +
                        " went backwards between two reads");
    }
    interval.counts.push_back(interval.unscheduled ? 0.0
                                                   : static_cast<double>(after - before) * scale);
  }
  return interval;
}

}  // namespace msprof::replay::perf
