#pragma once

#include <string>
#include <vector>

namespace msprof::test {

struct CliResult {
  int status = -1;  // exit status
  std::string out, err;
};

// Runs the built msprof-analyze with `args` (each passed as one argument).
CliResult run_analyze(const std::vector<std::string>& args);

}  // namespace msprof::test
