#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "format/trace_commands.h"

namespace msprof::trace {

enum class RangeStatus : std::uint8_t {
  Complete = 0,
  Truncated = 1,
  Ignored = 2,
  NotReplayable = 3
};
std::string_view range_status_name(RangeStatus status);

struct BufferState {
  CaptureId buffer = 0;
  BlobRef blob;
  friend bool operator==(const BufferState&, const BufferState&) = default;
};

// Device timestamps of one command in the original run (device clock, ns).
struct CommandTiming {
  std::uint64_t command_seq = 0;
  std::uint64_t queued_ns = 0, submit_ns = 0, start_ns = 0, end_ns = 0;
  friend bool operator==(const CommandTiming&, const CommandTiming&) = default;
};

struct Range {
  CaptureId id = 0;
  std::string name;
  std::string domain;
  std::uint32_t order = 0;  // order of appearance in the program
  std::uint64_t thread_id = 0;
  std::uint64_t stream = 0;                // the stream argument as the program passed it
  std::uint64_t start_ns = 0, end_ns = 0;  // host clock
  RangeStatus status = RangeStatus::Complete;
  std::string status_reason;
  std::vector<Command> commands;
  std::vector<BufferState> initial_state, final_state;
  std::vector<CommandTiming> timings;
  std::vector<CaptureId> objects;  // every object the commands use
  friend bool operator==(const Range&, const Range&) = default;
};

}  // namespace msprof::trace
