#pragma once

#include <filesystem>
#include <vector>

#include "format/trace_reader.h"
#include "replayer/core/device/replay_device.h"
#include "replayer/core/plan/range_selection.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/replay_options.h"

namespace msprof::replay::cli {

// The run under the simulator (--counting-child FOLDER): the selected
// ranges' warm-up passes, then their counting passes, each kernel between
// callgrind's client requests; progress on stderr. Writes into `folder`
// what the simulator cannot say: the device as this run saw it and the
// ranges that failed here (child_report_name()). Returns the exit status.
int run_counting_child(const trace::TraceReader& reader, const TraceCatalog& catalog,
                       ReplayDevice& device, ReplayOptions options,
                       const std::vector<SelectedRange>& selection,
                       const std::filesystem::path& folder);

// The report's file name inside the folder. Lines: "device NAME"; per range
// that failed or was not counted "failed INDEX REASON"; per workbench
// variant that failed "failed-variant INDEX OPTION_INDEX REASON"; "error
// MESSAGE" when the run itself failed.
constexpr const char* child_report_name() {
  return "child-report.txt";
}

// Writes "error MESSAGE" into the report: the child's one-line failure,
// for the parent to say.
void report_child_error(const std::filesystem::path& folder, const std::string& message);

}  // namespace msprof::replay::cli
