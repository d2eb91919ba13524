#include "replayer/perf/process_threads.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <string>
#include <system_error>

#include "replayer/core/replay_error.h"

namespace msprof::replay::perf {

std::vector<pid_t> other_threads_of_this_process() {
  const pid_t self = ::gettid();
  std::vector<pid_t> threads;
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc/self/task", error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    pid_t tid = 0;
    const auto [last, parsed] = std::from_chars(name.data(), name.data() + name.size(), tid);
    if (parsed == std::errc{} && last == name.data() + name.size() && tid != self) {
      threads.push_back(tid);
    }
  }
  if (error) {
    throw DeviceError("cannot list this process's threads in /proc/self/task (" + error.message() +
                      "); perf counts the device's worker threads there");
  }
  std::sort(threads.begin(), threads.end());
  return threads;
}

}  // namespace msprof::replay::perf
