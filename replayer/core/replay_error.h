#pragma once

#include <stdexcept>
#include <string>

namespace msprof::replay {

// Every failure of the replayer libraries is one of these, so the CLI catches
// once and prints one line. The message says what went wrong and, after a
// "; ", what the user can do about it.
class ReplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The command line asked for something the trace or machine does not have.
class UsageError : public ReplayError {
 public:
  using ReplayError::ReplayError;
};

// The device or its driver refused an operation.
class DeviceError : public ReplayError {
 public:
  using ReplayError::ReplayError;
};

// The trace is readable but its content cannot be replayed as it stands.
class PlanError : public ReplayError {
 public:
  using ReplayError::ReplayError;
};

// A workbench variant cannot be built as asked: its code does not build, or
// its kernel does not take the recorded arguments. `build_log` holds the
// driver's log, whole, for the user to read after the one-line message.
class VariantError : public ReplayError {
 public:
  VariantError(const std::string& what, std::string build_log = "")
      : ReplayError(what), build_log_(std::move(build_log)) {}
  const std::string& build_log() const { return build_log_; }

 private:
  std::string build_log_;
};

}  // namespace msprof::replay
