#include "replayer/core/replay_options.h"

namespace msprof::replay {

std::string_view replay_mode_name(ReplayMode mode) {
  return mode == ReplayMode::Range ? "range" : "kernel";
}

std::string_view cache_control_name(CacheControl control) {
  return control == CacheControl::All ? "all" : "none";
}

std::string_view thread_control_name(ThreadControl control) {
  return control == ThreadControl::Pin ? "pin" : "none";
}

std::string_view verify_mode_name(VerifyMode mode) {
  switch (mode) {
    case VerifyMode::Off:
      return "off";
    case VerifyMode::First:
      return "on";
    case VerifyMode::Each:
      return "each";
  }
  return "on";
}

std::string_view restore_policy_name(RestorePolicy policy) {
  switch (policy) {
    case RestorePolicy::Auto:
      return "auto";
    case RestorePolicy::Copy:
      return "copy";
    case RestorePolicy::Trace:
      return "trace";
  }
  return "auto";
}

}  // namespace msprof::replay
