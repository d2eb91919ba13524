#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "replayer/core/metric_groups.h"
#include "replayer/core/replay_error.h"

namespace msprof::replay {

// A callgrind output file that cannot be read as one: not callgrind's, or
// cut short (the simulated run died before it finished writing). The
// message is one line and names the file.
class CallgrindDumpError : public ReplayError {
 public:
  using ReplayError::ReplayError;
};

// What one callgrind dump says as a whole: who triggered it and the sum of
// every event over what was collected. Per-function costs are not kept.
struct CallgrindDump {
  std::filesystem::path file;
  // After "desc: Trigger: ": "Client Request: msprof range=0 pass=0 seq=5",
  // "Program termination", ...
  std::string trigger;
  // The name given to CALLGRIND_DUMP_STATS_AT; empty for other triggers.
  std::string client_request;
  std::vector<std::string> events;    // "Ir", "Dr", ... as the "events:" line orders them
  std::vector<std::uint64_t> totals;  // one per event, summed over the file's parts
  // The caches the dump says it simulated ("desc: D1 cache: ..."), where it
  // says so.
  CacheModel cache;

  // The total of `event`; nullopt when the run did not count it (callgrind
  // lists only the events its options turn on).
  std::optional<std::uint64_t> total(std::string_view event) const;
};

// Reads one callgrind output file line by line: only its header lines and
// "totals:" lines are parsed, cost lines are skipped. CallgrindDumpError
// when it is not a callgrind file or is truncated; ReplayError when it
// cannot be opened.
CallgrindDump read_callgrind_dump(const std::filesystem::path& file);

// The dumps callgrind wrote into `folder` for --callgrind-out-file=
// folder/`base`, in the order they were written: `base`.1, `base`.2, ...
// (by number, not name), then `base` itself, the dump at program
// termination, where present. Other files are not listed. ReplayError
// when the folder cannot be read.
std::vector<std::filesystem::path> list_callgrind_dumps(const std::filesystem::path& folder,
                                                        std::string_view base = "callgrind.out");

}  // namespace msprof::replay
