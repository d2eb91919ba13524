#include "recorder/launcher/child_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
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
  std::string pending;
  bool pipe_open = true;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (pipe_open) {
      pollfd p{status_pipe[0], POLLIN, 0};
      const int ready = ::poll(&p, 1, done == pid ? 0 : 50);
      if (ready > 0) {
        char buf[4096];
        const ssize_t n = ::read(status_pipe[0], buf, sizeof buf);
        if (n > 0) {
          pending.append(buf, static_cast<std::size_t>(n));
          for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
            const std::string line = pending.substr(0, nl);
            pending.erase(0, nl + 1);
            if (on_status(line) && !result.ended_by_us) {
              result.ended_by_us = true;
              ::kill(pid, SIGKILL);
            }
          }
          continue;
        }
        if (n == 0) pipe_open = false;
      }
    }
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (!pipe_open) ::usleep(20000);
  }
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
