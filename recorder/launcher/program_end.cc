#include "recorder/launcher/program_end.h"

#include <cstring>
#include <system_error>

#include "format/frame.h"
#include "format/trace_error.h"
#include "format/trace_reader.h"

namespace msprof::record {

bool program_died(const ChildResult& child) {
  return !child.ended_by_us && child.signal != 0;
}

std::string program_end_text(const ChildResult& child) {
  if (child.signal != 0) {
    std::string text = "was killed by signal " + std::to_string(child.signal);
    if (const char* name = sigabbrev_np(child.signal)) text += std::string(" (SIG") + name + ")";
    return text;
  }
  if (child.exit_code != 0) return "exited with status " + std::to_string(child.exit_code);
  return "exited";
}

std::size_t finished_ranges(const std::filesystem::path& trace) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(trace, ec);
  if (ec || size < trace::kFileHeaderSize) return 0;
  try {
    const trace::TraceReader reader(trace);
    std::size_t n = 0;
    for (const auto& range : reader.read_all<trace::Range>()) {
      if (range.status == trace::RangeStatus::Complete ||
          range.status == trace::RangeStatus::NotReplayable) {
        ++n;
      }
    }
    return n;
  } catch (const trace::TraceError&) {
    // Not one whole frame: the recorder had written nothing usable.
    return 0;
  }
}

}  // namespace msprof::record
