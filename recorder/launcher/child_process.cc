#include "recorder/launcher/child_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace msprof::record {
namespace {

volatile sig_atomic_t g_child = 0;

void forward_signal(int sig) {
  if (g_child > 0) ::kill(g_child, sig);
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& command,
                      const std::map<std::string, std::string>& env,
                      const std::string& status_fd_var,
                      const std::function<bool(const std::string&)>& on_status) {
  int exec_pipe[2];    // tells the parent why exec failed
  int status_pipe[2];  // the recorder's messages
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0 || ::pipe2(status_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(exec_pipe[0]);
    ::close(status_pipe[0]);
    const int status_fd = ::fcntl(status_pipe[1], F_DUPFD, 10);  // without CLOEXEC
    for (const auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
    ::setenv(status_fd_var.c_str(), std::to_string(status_fd).c_str(), 1);
    std::vector<char*> argv;
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    const int err = errno;
    [[maybe_unused]] ssize_t n = ::write(exec_pipe[1], &err, sizeof err);
    ::_exit(127);
  }
  ::close(exec_pipe[1]);
  ::close(status_pipe[1]);
  int exec_errno = 0;
  ssize_t got;
  do {
    got = ::read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  ::close(exec_pipe[0]);
  if (got == sizeof exec_errno) {
    ::waitpid(pid, nullptr, 0);
    ::close(status_pipe[0]);
    throw std::runtime_error("cannot run '" + command[0] + "': " + std::strerror(exec_errno));
  }

  g_child = pid;
  struct sigaction forward {
  }, old_int{}, old_term{}, old_quit{};
  forward.sa_handler = forward_signal;
  ::sigemptyset(&forward.sa_mask);
  ::sigaction(SIGINT, &forward, &old_int);
  ::sigaction(SIGTERM, &forward, &old_term);
  ::sigaction(SIGQUIT, &forward, &old_quit);

  ChildResult result;
  result.pid = pid;
  std::string pending;
  const auto on_lines = [&](const char* data, std::size_t size) {
    pending.append(data, size);
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
      const std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      if (on_status(line) && !result.ended_by_us) {
        result.ended_by_us = true;
        ::kill(pid, SIGKILL);
      }
    }
  };
  // The program's exit is waited for, not polled: a poll interval is time
  // added to every recorded run. Its pidfd wakes us even while a process
  // it started still holds the status pipe open; kernels before 5.3 have
  // none, and then the pipe is watched in 50 ms steps.
  int pidfd = -1;
#ifdef SYS_pidfd_open
  pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#endif
  bool pipe_open = true;
  bool reaped = false;
  int status = 0;
  for (;;) {
    if (!reaped) {
      const pid_t done = ::waitpid(pid, &status, WNOHANG);
      reaped = done == pid || (done < 0 && errno != EINTR);
    }
    if (!pipe_open) {
      if (reaped) break;
      const pid_t done = ::waitpid(pid, &status, 0);
      reaped = done == pid || (done < 0 && errno != EINTR);
      continue;
    }
    // Once the program has exited, only what is already in the pipe is
    // read: a process it started may hold the pipe open for long.
    pollfd fds[2] = {{status_pipe[0], POLLIN, 0}, {pidfd, POLLIN, 0}};
    const bool watch_exit = !reaped && pidfd >= 0;
    const int timeout = reaped ? 0 : (pidfd >= 0 ? -1 : 50);
    const int ready = ::poll(fds, watch_exit ? 2 : 1, timeout);
    if (ready < 0) {
      if (errno != EINTR) pipe_open = false;
      continue;
    }
    if (ready == 0) {
      if (reaped) break;
      continue;
    }
    if (fds[0].revents != 0) {
      char buf[4096];
      const ssize_t n = ::read(status_pipe[0], buf, sizeof buf);
      if (n > 0) {
        on_lines(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        pipe_open = false;
      }
    }
    // Otherwise the pidfd: the program exited, and the next waitpid reaps it.
  }
  if (pidfd >= 0) ::close(pidfd);
  ::close(status_pipe[0]);
  g_child = 0;
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exit_code = result.ended_by_us ? 0 : 128 + result.signal;
  }
  return result;
}

}  // namespace msprof::record
