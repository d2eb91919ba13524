#pragma once

#include <string>
#include <vector>

#include "replayer/core/plan/range_selection.h"
#include "replayer/core/replay_options.h"

namespace msprof::replay::cli {

enum class OutputFormat { Table, Csv, Json };

struct CliOptions {
  std::string trace;
  RangeFilter filter;
  ReplayOptions replay;
  std::string device;
  bool list_devices = false;
  bool list_ranges = false;
  std::string output = ".";
  OutputFormat format = OutputFormat::Table;
  bool list_metrics = false;
  // --metrics Default: every group some backend here can count, not all.
  bool metrics_default = false;
  // Set in the run msprof-replay starts of itself under the simulator
  // (--metrics-backend sim): count there, write nothing but the
  // simulator's files into this folder.
  std::string counting_child;
};

// Parses argv. Returns false when the command line was fully handled
// (--help): then `exit_code` says how to end. UsageError on a bad line.
bool parse_command_line(int argc, char** argv, CliOptions& options, int& exit_code);

}  // namespace msprof::replay::cli
