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
};

// Parses argv. Returns false when the command line was fully handled
// (--help): then `exit_code` says how to end. UsageError on a bad line.
bool parse_command_line(int argc, char** argv, CliOptions& options, int& exit_code);

}  // namespace msprof::replay::cli
