#include "format/trace_range.h"

namespace msprof::trace {

std::string_view range_status_name(RangeStatus status) {
  switch (status) {
    case RangeStatus::Complete:
      return "complete";
    case RangeStatus::Truncated:
      return "truncated";
    case RangeStatus::Ignored:
      return "ignored";
    case RangeStatus::NotReplayable:
      return "not replayable";
  }
  return "unknown";
}

}  // namespace msprof::trace
