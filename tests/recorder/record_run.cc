#include "tests/recorder/record_run.h"

#include <fstream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

namespace msprof::test {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

RunResult run_command(const std::vector<std::string>& argv, const std::filesystem::path& workdir) {
  const auto out_path = workdir / ".stdout";
  const auto err_path = workdir / ".stderr";
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(workdir.c_str()) != 0) ::_exit(126);
#ifdef MSPROF_SANITIZER_PRELOAD
    // The example programs' and the driver's own leaks are not the
    // recorder's to report; memory errors still abort.
    ::setenv("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1:alloc_dealloc_mismatch=0", 1);
#endif
    if (!std::freopen(out_path.c_str(), "w", stdout) ||
        !std::freopen(err_path.c_str(), "w", stderr))
      ::_exit(126);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

RunResult record(const std::vector<std::string>& options, const std::vector<std::string>& program,
                 const std::filesystem::path& workdir) {
  std::vector<std::string> argv;
#ifdef MSPROF_SANITIZER_PRELOAD
  // The programs' own leaks (python3, the driver) are not ours to report;
  // memory errors anywhere in the recorder still are.
  argv = {"env", std::string("LD_PRELOAD=") + MSPROF_SANITIZER_PRELOAD,
          "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:alloc_dealloc_mismatch=0"};
#endif
  argv.push_back(MSPROF_RECORD_EXE);
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  return run_command(argv, workdir);
}

std::string example(const std::string& name) {
  return std::string(MSPROF_EXAMPLES_DIR) + "/" + name;
}
std::string example_binary(const std::string& name) {
  return std::string(MSPROF_EXAMPLES_BIN_DIR) + "/" + name;
}
std::string python() {
  return "python3";
}

}  // namespace msprof::test
