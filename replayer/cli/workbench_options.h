#pragma once

#include <string>
#include <vector>

#include "replayer/core/plan/kernel_variant.h"

namespace msprof::replay::cli {

// The workbench options as given, one string per use.
struct WorkbenchArgs {
  std::vector<std::string> kernel_sources;   // KERNEL=FILE
  std::vector<std::string> program_sources;  // PROGRAM=FILE
  std::vector<std::string> build_options;    // KERNEL|PROGRAM=OPTIONS
  std::vector<std::string> local_sizes;      // KERNEL=X[,Y[,Z]]
  std::vector<std::string> global_sizes;     // KERNEL=X[,Y[,Z]]
  std::vector<std::string> sweeps;           // TARGET:WHAT=VALUES
  bool allow_global_size_change = false;
};

// Reads the files the options name. UsageError, one line, for a malformed
// value or a file that cannot be read.
WorkbenchRequest workbench_request(const WorkbenchArgs& args);

}  // namespace msprof::replay::cli
