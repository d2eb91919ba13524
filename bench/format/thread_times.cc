#include "bench/format/thread_times.h"

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace msprof::bench {
namespace {

ThreadTimes read_schedstat(const std::filesystem::path& task) {
  std::ifstream in(task / "schedstat");
  double cpu_ns = 0, wait_ns = 0;
  in >> cpu_ns >> wait_ns;
  return {cpu_ns * 1e-9, wait_ns * 1e-9};
}

}  // namespace

ThreadTimes calling_thread_times() {
  return read_schedstat("/proc/self/task/" + std::to_string(::gettid()));
}

std::map<std::string, ThreadTimes> other_threads_by_name() {
  const std::string self = std::to_string(::gettid());
  std::map<std::string, ThreadTimes> by_name;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    if (task.path().filename() == self) continue;
    std::string name;
    std::getline(std::ifstream(task.path() / "comm"), name);
    const ThreadTimes t = read_schedstat(task.path());
    ThreadTimes& sum = by_name[name];
    sum.cpu_s += t.cpu_s;
    sum.wait_s += t.wait_s;
  }
  return by_name;
}

ThreadTimes other_threads_times() {
  const std::string self = std::to_string(::gettid());
  ThreadTimes sum;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    if (task.path().filename() == self) continue;
    const ThreadTimes t = read_schedstat(task.path());
    sum.cpu_s += t.cpu_s;
    sum.wait_s += t.wait_s;
  }
  return sum;
}

}  // namespace msprof::bench
