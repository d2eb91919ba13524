#include "recorder/core/capture_description.h"

#include <chrono>

#include <unistd.h>

#include "format/trace_version.h"

namespace msprof::record {
namespace {

constexpr char kSeparator = '\x1f';

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

}  // namespace

trace::TraceInfo describe_capture(const RecorderConfig& config, std::uint64_t pid, std::string api,
                                  std::vector<trace::DeviceInfo> devices) {
  trace::TraceInfo info;
  info.schema_version = trace::kSchemaVersion;
  info.min_reader_version = trace::kMinReaderVersion;
  info.tool_version = trace::kToolVersion;
  info.created_unix_ns =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count());
  info.host = host_name();
  info.command_line = split_command(config.command_line);
  info.pid = pid;
  info.api = std::move(api);
  info.options.include = config.include.alternatives();
  info.options.exclude = config.exclude.alternatives();
  info.options.final_state = config.final_state;
  info.options.kill = config.kill;
  info.options.compression_level = config.compression_level;
  info.options.memory_bound = config.memory_bound;
  info.options.compression_threads = config.workers;
  info.options.min_saving_percent = config.min_saving;
  info.devices = std::move(devices);
  return info;
}

std::string join_command(const std::vector<std::string>& arguments) {
  std::string joined;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (i > 0) joined += kSeparator;
    joined += arguments[i];
  }
  return joined;
}

std::vector<std::string> split_command(const std::string& joined) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= joined.size() && !joined.empty()) {
    const std::size_t end = joined.find(kSeparator, start);
    out.push_back(joined.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace msprof::record
