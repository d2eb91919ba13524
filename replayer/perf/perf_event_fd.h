#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace msprof::replay::perf {

// One thing perf_event_open counts, as `perf list` names it.
struct PerfEvent {
  std::string_view name;   // "LLC-load-misses": what notes and errors call it
  std::uint32_t type = 0;  // PERF_TYPE_*
  std::uint64_t config = 0;
};

// The name glibc gives an errno value ("ENOENT"), for one-line errors.
std::string errno_name(int error);

// One opened counter: owns its file descriptor.
class PerfEventFd {
 public:
  PerfEventFd() = default;
  explicit PerfEventFd(int fd) : fd_(fd) {}
  ~PerfEventFd();
  PerfEventFd(PerfEventFd&& other) noexcept : fd_(other.release()) {}
  PerfEventFd& operator=(PerfEventFd&& other) noexcept;
  PerfEventFd(const PerfEventFd&) = delete;
  PerfEventFd& operator=(const PerfEventFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

// What opening a counter gave: the counter, or the errno of the refusal.
struct OpenedEvent {
  PerfEventFd fd;
  int error = 0;
};

// Opens `event` counting user space only on thread `tid` (0: the calling
// thread), on whichever CPU it runs. With group_fd -1 it leads a new group,
// opened disabled, whose read() gives every member with its id and the
// group's times enabled and running; otherwise it joins group_fd's group
// and follows its leader's enable and disable.
OpenedEvent open_perf_event(const PerfEvent& event, pid_t tid, int group_fd);

// The id perf gives an opened counter, as a group read lists it.
// DeviceError when the kernel refuses.
std::uint64_t perf_event_id(const PerfEventFd& fd, const PerfEvent& event);

}  // namespace msprof::replay::perf
