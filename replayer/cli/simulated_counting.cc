#include "replayer/cli/simulated_counting.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

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

// The environment of the simulated run. PoCL's basic device, which runs
// every work-group on the thread that waits for the command: with worker
// threads (even one), how valgrind interleaves the waiting thread's few
// accesses with the kernel's depends on timing, and under load a launch's
// misses changed from run to run by a few lines. hwloc without its CPUID
// probe, which says on stderr that it cannot run under valgrind (the
// topology comes from sysfs all the same).
std::vector<std::string> child_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.rfind("POCL_DEVICES=", 0) == 0 || entry.rfind("HWLOC_COMPONENTS=", 0) == 0) continue;
    env.push_back(entry);
  }
  env.push_back("POCL_DEVICES=basic");
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

// Where PoCL keeps what it builds, as PoCL 3.1 finds it.
fs::path pocl_kernel_cache() {
  if (const char* dir = std::getenv("POCL_CACHE_DIR"); dir != nullptr && *dir != '\0') return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
    return fs::path(xdg) / "pocl" / "kcache";
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : "/") / ".cache" / "pocl" / "kcache";
}

// What PoCL built into its cache (programs' bitcode, kernels' binaries,
// build logs): what the simulated run added tells that it built. PoCL also
// touches `last_accessed` and leaves a `tempfile_*` behind on every run;
// those say nothing. Counted here, in the parent: a scan in the simulated
// run would move its own heap.
std::size_t cached_build_count() {
  std::size_t count = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(pocl_kernel_cache(), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    count += it->is_regular_file(ec) && name != "last_accessed" && name.rfind("tempfile_", 0) != 0;
  }
  return count;
}

// What the simulated run's report says (counting_child.h).
struct ChildReport {
  std::string device;
  std::string error;
  std::map<std::size_t, std::string> failed_ranges;
  std::set<std::pair<std::size_t, std::size_t>> failed_variants;  // range, option index
};

std::optional<std::size_t> number_at(const std::string& text, std::size_t& pos) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data() + pos, text.data() + text.size(), value);
  if (error != std::errc{} || end == text.data() + pos) return std::nullopt;
  pos = static_cast<std::size_t>(end - text.data());
  if (pos < text.size() && text[pos] == ' ') ++pos;
  return value;
}

ChildReport read_child_report(const fs::path& folder) {
  ChildReport report;
  std::ifstream in(folder / child_report_name());
  for (std::string line; std::getline(in, line);) {
    std::size_t pos = line.find(' ');
    if (pos == std::string::npos) continue;
    const std::string kind = line.substr(0, pos++);
    if (kind == "device") report.device = line.substr(pos);
    if (kind == "error") report.error = line.substr(pos);
    if (kind == "failed") {
      if (const auto index = number_at(line, pos)) report.failed_ranges[*index] = line.substr(pos);
    }
    if (kind == "failed-variant") {
      const auto range = number_at(line, pos);
      const auto variant = number_at(line, pos);
      if (range && variant) report.failed_variants.insert({*range, *variant});
    }
  }
  return report;
}

// One simulated run into `scratch`; the error text when it failed.
std::string run_simulated(const fs::path& valgrind, const std::vector<std::string>& self_args,
                          const std::vector<MetricGroup>& groups, const CacheModel& model,
                          const fs::path& scratch) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "cannot find this program (/proc/self/exe: " + ec.message() + ")";
  std::vector<std::string> args = callgrind_arguments(
      valgrind, model, groups, scratch / "callgrind.out", scratch / "valgrind.log");
  args.push_back(self.string());
  args.insert(args.end(), self_args.begin(), self_args.end());
  args.push_back("--counting-child");
  args.push_back(scratch.string());
  const int status = run_and_wait(args, child_environment());
  if (status == 0) return "";
  const ChildReport report = read_child_report(scratch);
  const std::string why = !report.error.empty()
                              ? report.error
                              : "valgrind's log is " + (scratch / "valgrind.log").string();
  return "the simulated replay (msprof-replay under callgrind) ended with status " +
         std::to_string(status) + ": " + why;
}

void attach_dumps(const fs::path& scratch, const ChildReport& report,
                  const std::vector<MetricGroup>& groups, const CacheModel& model,
                  ReplayResult& result) {
  for (const auto& file : list_callgrind_dumps(scratch)) {
    const CallgrindDump dump = read_callgrind_dump(file);
    const auto name = parse_dump_name(dump.client_request);
    if (!name || name->range_index >= result.ranges.size()) continue;
    // A range or variant that failed under the simulator keeps no partial counts.
    if (report.failed_ranges.count(name->range_index) != 0) continue;
    if (name->variant && report.failed_variants.count({name->range_index, *name->variant}) != 0)
      continue;
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
}

}  // namespace

std::string count_by_simulation(const fs::path& valgrind, const std::vector<std::string>& self_args,
                                const std::vector<MetricGroup>& groups, const CacheModel& model,
                                ReplayResult& result) {
  std::optional<ScratchFolder> scratch(std::in_place);
  const std::size_t built_before = cached_build_count();
  std::string error = run_simulated(valgrind, self_args, groups, model, scratch->path());
  if (!error.empty()) return error;
  ChildReport report = read_child_report(scratch->path());
  if (cached_build_count() != built_before) {
    // The kernels were built in that run: the build's memory use moved
    // later allocations, and with them the cache sets the kernels' data
    // falls in. Counted again, with them cached, the counts repeat.
    scratch.emplace();
    error = run_simulated(valgrind, self_args, groups, model, scratch->path());
    if (!error.empty()) return error;
    report = read_child_report(scratch->path());
  }
  attach_dumps(scratch->path(), report, groups, model, result);
  auto& m = result.metrics;
  for (const MetricGroup group : groups) {
    m.groups.push_back(group);
    m.backends.push_back("sim");
  }
  m.cache_model = model;
  m.simulated_device = report.device;
  for (const auto& [index, reason] : report.failed_ranges) {
    if (index < result.ranges.size())
      m.notes.push_back("range '" + result.ranges[index].name +
                        "' failed under the simulator, so it has no simulated counts: " + reason);
  }
  for (const auto& [range, variant] : report.failed_variants) {
    if (range < result.ranges.size())
      m.notes.push_back("range '" + result.ranges[range].name + "': variant " +
                        std::to_string(variant + 1) +
                        " failed under the simulator, so it has no simulated counts");
  }
  return "";
}

}  // namespace msprof::replay::cli
