#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace msprof::test {

// One run of a program, with or without msprof-record in front of it.
struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

RunResult run_command(const std::vector<std::string>& argv, const std::filesystem::path& workdir);
RunResult record(const std::vector<std::string>& options, const std::vector<std::string>& program,
                 const std::filesystem::path& workdir);
std::string example(const std::string& name);         // path of examples/<name>
std::string example_binary(const std::string& name);  // a built C example
std::string python();

}  // namespace msprof::test
