#include "recorder/core/recorder_config.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace msprof::record {

std::optional<RecorderConfig> RecorderConfig::from_environment() {
  return from_variables([](const char* name) -> const char* { return std::getenv(name); });
}

std::optional<RecorderConfig> RecorderConfig::from_variables(
    const std::function<const char*(const char*)>& lookup) {
  const auto var = [&](const char* name) -> const char* {
    const char* v = lookup(name);
    return v != nullptr && *v != '\0' ? v : nullptr;
  };
  const char* output = var(kOutputVar);
  if (output == nullptr) return std::nullopt;
  RecorderConfig c;
  c.output = output;
  // The launcher validated the patterns; a bad one here means "record none".
  if (const char* v = var(kIncludeVar)) c.include = NameFilter::parse(v);
  if (const char* v = var(kExcludeVar)) c.exclude = NameFilter::parse(v);
  if (const char* v = var(kFinalStateVar)) c.final_state = std::string_view(v) != "off";
  if (const char* v = var(kKillVar)) c.kill = std::string_view(v) == "on";
  if (const char* v = var(kLevelVar)) c.compression_level = std::atoi(v);
  if (const char* v = var(kMinSavingVar)) {
    // Not a number: the default, not 0, which would cost the most CPU.
    char* end = nullptr;
    const long percent = std::strtol(v, &end, 10);
    if (*end == '\0') {
      c.min_saving =
          static_cast<unsigned>(std::clamp(percent, 0L, static_cast<long>(kMaxMinSaving)));
    }
  }
  if (const char* v = var(kMemoryBoundVar)) c.memory_bound = std::strtoull(v, nullptr, 10);
  if (const char* v = var(kWorkersVar)) {
    c.workers = static_cast<unsigned>(std::clamp(std::atoi(v), 1, static_cast<int>(kMaxWorkers)));
  }
  if (const char* v = var(kQuietVar)) c.quiet = std::string_view(v) == "1";
  if (const char* v = var(kProgramBinariesVar)) c.program_binaries = std::string_view(v) == "1";
  if (const char* v = var(kWriteBehindVar)) c.write_behind = std::string_view(v) == "1";
  if (const char* v = var(kStatusFdVar)) c.status_fd = std::atoi(v);
  if (const char* v = var(kCommandVar)) c.command_line = v;
  c.memory_bound = std::max(c.memory_bound, kMinMemoryBound);
  return c;
}

}  // namespace msprof::record
