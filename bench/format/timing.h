#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

namespace msprof::bench {

// Seconds of a few repetitions. Other work on the machine only ever makes a
// run slower, so the best run is the robust figure; the median shows spread.
struct Timing {
  std::vector<double> seconds;

  double best() const { return *std::min_element(seconds.begin(), seconds.end()); }
  double median() const {
    std::vector<double> s = seconds;
    std::sort(s.begin(), s.end());
    const std::size_t n = s.size();
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
};

inline double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double cpu_seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
inline double thread_cpu_seconds() {
  return cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
}
inline double process_cpu_seconds() {
  return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

}  // namespace msprof::bench
