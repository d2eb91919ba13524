#include "replayer/cli/simulated_counting.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "replayer/callgrind/callgrind_client.h"
#include "replayer/callgrind/callgrind_dump.h"
#include "replayer/callgrind/sim_cache_model.h"
#include "replayer/callgrind/simulated_counts.h"
#include "replayer/cli/counting_child.h"
#include "replayer/core/replay_error.h"

extern char** environ;

namespace msprof::replay::cli {

namespace fs = std::filesystem;

namespace {

// The simulator's files live only as long as this run needs them.
class ScratchFolder {
 public:
  ScratchFolder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/msprof-sim-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw ReplayError(std::string("cannot make a folder for the simulator's files in ") +
                        fs::path(pattern).parent_path().string() + ": " + std::strerror(errno) +
                        "; set TMPDIR to a writable folder");
    }
    path_ = pattern;
  }
  ~ScratchFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The last non-empty line of valgrind's own log, to say why it failed.
std::string last_log_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    const auto text = line.find_first_not_of("=-0123456789 ");
    if (text != std::string::npos) last = line.substr(text);
  }
  return last;
}

int run_and_wait(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  std::vector<char*> argv, envp;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int error =
      ::posix_spawn(&pid, args[0].c_str(), nullptr, nullptr, argv.data(), envp.data());
  if (error != 0) {
    throw ReplayError("cannot start " + args[0] + ": " + std::strerror(error) +
                      "; check the valgrind installation (apt install valgrind)");
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw ReplayError(std::string("waitpid: ") + std::strerror(errno));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

// The environment of the simulated run: PoCL with one worker thread, so
// that the work-groups run in one order and the counts repeat; hwloc
// without its CPUID probe, which says on stderr that it cannot run under
// valgrind (the topology comes from sysfs all the same).
std::vector<std::string> child_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.rfind("POCL_MAX_PTHREAD_COUNT=", 0) == 0 || entry.rfind("HWLOC_COMPONENTS=", 0) == 0)
      continue;
    env.push_back(entry);
  }
  env.push_back("POCL_MAX_PTHREAD_COUNT=1");
  env.push_back("HWLOC_COMPONENTS=-x86");
  return env;
}

// valgrind's options for the simulated run. Nothing is instrumented until
// the first counting pass starts it (--instr-atstart=no): the driver's and
// the compiler's start-up run at valgrind's plain speed. Costs are
// collected only inside PoCL's work-group functions, on whichever thread
// runs them; the run's own work between kernels (restores, enqueues) is
// simulated, so it touches the cache as natively, but not counted.
std::vector<std::string> callgrind_arguments(const fs::path& valgrind, const CacheModel& model,
                                             const std::vector<MetricGroup>& groups,
                                             const fs::path& out, const fs::path& log) {
  std::vector<std::string> args = {valgrind.string(),
                                   "--tool=callgrind",
                                   "--instr-atstart=no",
                                   "--collect-atstart=no",
                                   "--toggle-collect=_pocl_kernel_*_workgroup*",
                                   "--cache-sim=yes",
                                   "--dump-instr=no",
                                   "--dump-line=no",
                                   "--callgrind-out-file=" + out.string(),
                                   "--log-file=" + log.string()};
  if (std::find(groups.begin(), groups.end(), MetricGroup::Instructions) != groups.end())
    args.push_back("--branch-sim=yes");
  for (auto& a : callgrind_cache_arguments(model)) args.push_back(std::move(a));
  return args;
}

}  // namespace

void count_by_simulation(const std::vector<std::string>& self_args,
                         const std::vector<MetricGroup>& groups, const CacheModel& model,
                         ReplayResult& result) {
  const ScratchFolder scratch;
  const fs::path out = scratch.path() / "callgrind.out";
  std::vector<std::string> args = callgrind_arguments(find_valgrind().program, model, groups, out,
                                                      scratch.path() / "valgrind.log");
  args.push_back(fs::read_symlink("/proc/self/exe").string());
  args.insert(args.end(), self_args.begin(), self_args.end());
  args.push_back("--counting-child");
  args.push_back(scratch.path().string());
  const int status = run_and_wait(args, child_environment());
  if (status != 0) {
    const std::string why = last_log_line(scratch.path() / "valgrind.log");
    throw ReplayError("the simulated replay (msprof-replay under callgrind) failed with status " +
                      std::to_string(status) + (why.empty() ? "" : ": " + why) +
                      "; the timed results stand, run without --metrics-backend sim to keep "
                      "them");
  }
  std::map<std::size_t, std::string> failed;
  std::string simulated_device;
  {
    std::ifstream report(scratch.path() / child_report_name());
    for (std::string line; std::getline(report, line);) {
      if (line.rfind("device ", 0) == 0) simulated_device = line.substr(7);
      if (line.rfind("failed ", 0) == 0) {
        const auto space = line.find(' ', 7);
        failed[std::stoul(line.substr(7, space - 7))] =
            space == std::string::npos ? "" : line.substr(space + 1);
      }
    }
  }
  for (const auto& file : list_callgrind_dumps(scratch.path())) {
    const CallgrindDump dump = read_callgrind_dump(file);
    const auto name = parse_dump_name(dump.client_request);
    if (!name || name->range_index >= result.ranges.size()) continue;
    auto& range = result.ranges[name->range_index];
    for (auto& k : range.kernels) {
      if (k.seq != name->seq) continue;
      auto counts = simulated_counts(dump, model, groups);
      if (!name->variant) {
        for (auto& c : counts) k.counts.push_back(std::move(c));
        continue;
      }
      for (auto& v : range.variants) {
        // The recorded kernels around the changed ones ran as recorded.
        if (v.option_index != *name->variant || v.failed ||
            std::find(v.changed_kernels.begin(), v.changed_kernels.end(), k.name) ==
                v.changed_kernels.end())
          continue;
        auto launch = std::find_if(v.counts.begin(), v.counts.end(),
                                   [&](const VariantLaunchCounts& c) { return c.seq == k.seq; });
        if (launch == v.counts.end()) launch = v.counts.insert(v.counts.end(), {k.seq, k.name, {}});
        for (auto& c : counts) launch->counts.push_back(std::move(c));
      }
    }
  }
  auto& m = result.metrics;
  for (const MetricGroup group : groups) {
    m.groups.push_back(group);
    m.backends.push_back("sim");
  }
  m.cache_model = model;
  m.simulated_device = simulated_device;
  for (const auto& [index, reason] : failed) {
    if (index < result.ranges.size())
      m.notes.push_back("range '" + result.ranges[index].name +
                        "' failed under the simulator, so it has no simulated counts: " + reason);
  }
}

}  // namespace msprof::replay::cli
