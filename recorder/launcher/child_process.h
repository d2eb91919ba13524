#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace msprof::record {

struct ChildResult {
  int exit_code = 0;         // the program's status, 128+signal when a signal ended it
  int signal = 0;            // the signal, 0 when it exited
  bool ended_by_us = false;  // --kill on ended it
  long pid = 0;              // the program's process id
};

// Runs the program with extra environment variables and waits for it. Lines
// the recorder writes to the status pipe reach `on_status`; returning true
// from it ends the program (SIGKILL). A program that cannot be started
// throws std::runtime_error naming why.
ChildResult run_child(const std::vector<std::string>& command,
                      const std::map<std::string, std::string>& env,
                      const std::string& status_fd_var,
                      const std::function<bool(const std::string&)>& on_status);

}  // namespace msprof::record
