#pragma once

#include <nlohmann/json.hpp>

#include "analyzer/core/object_table.h"
#include "analyzer/core/replay_result_reader.h"

namespace msprof::analyze {

// The Chrome trace event format (what Perfetto UI and chrome://tracing open).
//
// A trace gives the original run: its ranges on the host threads that opened
// them (host clock), and on the device each queue with the ranges' spans and
// their timed commands (device clock). The two clocks are not related, so
// they are two processes, each starting at its own zero.
nlohmann::ordered_json chrome_trace_of_trace(const ObjectTable& table);

// A replay result keeps durations, not timestamps: each range gets a track,
// its passes laid end to end and each pass its kernels back to back, so
// widths are measured and positions are not.
nlohmann::ordered_json chrome_trace_of_result(const ReplayResult& result);

}  // namespace msprof::analyze
