#include "replayer/perf/perf_event_fd.h"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "replayer/core/replay_error.h"

namespace msprof::replay::perf {

std::string errno_name(int error) {
  if (const char* name = strerrorname_np(error)) return name;
  return "errno " + std::to_string(error);
}

PerfEventFd::~PerfEventFd() {
  if (fd_ >= 0) ::close(fd_);
}

PerfEventFd& PerfEventFd::operator=(PerfEventFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

OpenedEvent open_perf_event(const PerfEvent& event, pid_t tid, int group_fd) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = event.type;
  attr.config = event.config;
  // User space only: what perf_event_paranoid 2, the usual default, allows
  // without privileges, and what a kernel's own code is anyway.
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
                     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
  // Members follow the leader: only the leader starts disabled.
  attr.disabled = group_fd < 0 ? 1 : 0;
  const long fd = ::syscall(SYS_perf_event_open, &attr, tid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
  OpenedEvent opened;
  if (fd < 0) {
    opened.error = errno;
  } else {
    opened.fd = PerfEventFd(static_cast<int>(fd));
  }
  return opened;
}

std::uint64_t perf_event_id(const PerfEventFd& fd, const PerfEvent& event) {
  std::uint64_t id = 0;
  if (::ioctl(fd.get(), PERF_EVENT_IOC_ID, &id) != 0) {
    const int error = errno;
    throw DeviceError("perf_event_open: cannot read the id of the " + std::string(event.name) +
                      " counter (" + errno_name(error) + ": " + std::strerror(error) + ")");
  }
  return id;
}

}  // namespace msprof::replay::perf
