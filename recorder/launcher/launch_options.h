#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recorder/core/recorder_config.h"

namespace msprof::record {

struct LaunchOptions {
  std::string output = "trace.fb";
  bool force = false;
  std::string include, exclude;
  bool kill = false;
  bool final_state = true;
  int compression_level = 1;
  unsigned min_saving = RecorderConfig::kDefaultMinSaving;
  std::uint64_t memory_bound = RecorderConfig::kDefaultMemoryBound;
  unsigned compression_threads = 1;
  bool keep_program_caches = false;
  bool program_binaries = false;
  bool write_behind = false;
  bool quiet = false;
  std::vector<std::string> command;
};

// Parses the command line. Throws UsageError with a one-line message; a
// request for --help or --version sets `exit_now` and prints to stdout.
class UsageError : public std::exception {
 public:
  explicit UsageError(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

struct ParsedLaunch {
  LaunchOptions options;
  bool exit_now = false;
};
ParsedLaunch parse_launch_options(int argc, char** argv);

std::uint64_t parse_size(const std::string& text);  // "512M", "2G", "1048576"

}  // namespace msprof::record
