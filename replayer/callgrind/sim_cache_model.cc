#include "replayer/callgrind/sim_cache_model.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <system_error>

#include "replayer/core/replay_error.h"

extern char** environ;

namespace msprof::replay {
namespace {

bool is_power_of_two(std::uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

std::uint64_t floor_power_of_two(std::uint64_t v) {
  std::uint64_t p = 1;
  while (p <= v / 2) p *= 2;
  return p;
}

std::optional<std::string> read_word(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!in || !std::getline(in, text)) return std::nullopt;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

// sysfs writes sizes as "32K"; plain numbers are read too.
std::optional<std::uint64_t> read_number(const std::filesystem::path& file) {
  const auto text = read_word(file);
  return text ? parse_byte_size(*text) : std::nullopt;
}

struct SysfsCache {
  unsigned level = 0;
  std::string type;  // Data, Instruction, Unified
  CacheLevelModel model;
};

std::optional<SysfsCache> read_sysfs_cache(const std::filesystem::path& index) {
  const auto level = read_number(index / "level");
  const auto type = read_word(index / "type");
  const auto size = read_number(index / "size");
  const auto ways = read_number(index / "ways_of_associativity");
  const auto line = read_number(index / "coherency_line_size");
  if (!level || !type || !size || !ways || !line || *size == 0 || *line == 0) return std::nullopt;
  if (*ways > 1u << 20 || *line > 1u << 20) return std::nullopt;
  SysfsCache cache;
  cache.level = static_cast<unsigned>(*level);
  cache.type = *type;
  cache.model.size_bytes = *size;
  cache.model.line_bytes = static_cast<unsigned>(*line);
  // Linux reports a fully associative cache with 0 ways.
  cache.model.ways = *ways != 0 ? static_cast<unsigned>(*ways)
                                : static_cast<unsigned>(std::max<std::uint64_t>(1, *size / *line));
  return cache;
}

std::vector<SysfsCache> read_sysfs_caches(const std::filesystem::path& folder) {
  std::vector<SysfsCache> caches;
  std::error_code error;
  std::filesystem::directory_iterator it(folder, error);
  for (; !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (it->path().filename().string().rfind("index", 0) != 0) continue;
    if (auto cache = read_sysfs_cache(it->path())) caches.push_back(*cache);
  }
  return caches;
}

std::string level_text(const char* name, const CacheLevelModel& level) {
  return std::string(name) + " " + level.text();
}

}  // namespace

CacheModel generic_cache_model() {
  CacheModel model;
  model.i1 = CacheLevelModel{32 * 1024, 8, 64};
  model.d1 = CacheLevelModel{32 * 1024, 8, 64};
  model.ll = CacheLevelModel{8 * 1024 * 1024, 16, 64};
  return model;
}

CacheLevelModel callgrind_compatible_level(const CacheLevelModel& level) {
  const std::uint64_t sets = level.sets();
  if (sets == 0) return level;
  CacheLevelModel fit = level;
  if (!is_power_of_two(sets)) {
    // valgrind's maybe_tweak_LLc: it judges that more ways change the miss
    // rate less than a smaller cache would.
    const std::uint64_t fewer_sets = floor_power_of_two(sets);
    const double factor = static_cast<double>(sets) / static_cast<double>(fewer_sets);
    fit.ways = static_cast<unsigned>(0.5 + factor * static_cast<double>(level.ways));
    fit.size_bytes = static_cast<std::uint64_t>(fit.ways) * fit.line_bytes * fewer_sets;
  } else {
    fit.size_bytes = static_cast<std::uint64_t>(fit.ways) * fit.line_bytes * sets;
  }
  return fit;
}

SimulatedCacheModel host_cache_model(const std::filesystem::path& sysfs_root) {
  const std::filesystem::path folder = sysfs_root / "devices/system/cpu/cpu0/cache";
  const auto caches = read_sysfs_caches(folder);
  const SysfsCache* i1 = nullptr;
  const SysfsCache* d1 = nullptr;
  const SysfsCache* ll = nullptr;
  for (const auto& cache : caches) {
    if (cache.level == 1 && cache.type == "Instruction") i1 = &cache;
    if (cache.level == 1 && cache.type == "Data") d1 = &cache;
    if (cache.type == "Unified" && (ll == nullptr || cache.level > ll->level)) ll = &cache;
  }
  SimulatedCacheModel result;
  const CacheModel generic = generic_cache_model();
  if (i1 == nullptr && d1 == nullptr && ll == nullptr) {
    result.model = generic;
    result.notes.push_back("sysfs (" + folder.string() +
                           ") describes no cache of this CPU; the simulation uses a generic "
                           "model: " +
                           level_text("I1", *generic.i1) + "; " + level_text("D1", *generic.d1) +
                           "; " + level_text("LL", *generic.ll));
    return result;
  }
  const auto take = [&](const char* name, const SysfsCache* found,
                        const std::optional<CacheLevelModel>& fallback) {
    if (found == nullptr) {
      result.notes.push_back(
          "sysfs (" + folder.string() + ") describes no " + name +
          " cache of this CPU; the simulation uses a generic one: " + fallback->text());
      return *fallback;
    }
    const CacheLevelModel fit = callgrind_compatible_level(found->model);
    if (fit.size_bytes != found->model.size_bytes || fit.ways != found->model.ways) {
      result.notes.push_back("this CPU's " + std::string(name) + " cache (" + found->model.text() +
                             ") has " + std::to_string(found->model.sets()) +
                             " sets, not a power of two as callgrind needs; simulated as "
                             "valgrind does it: " +
                             fit.text());
    }
    return fit;
  };
  result.model.i1 = take("I1", i1, generic.i1);
  result.model.d1 = take("D1", d1, generic.d1);
  result.model.ll = take("LL", ll, generic.ll);
  return result;
}

std::vector<std::string> callgrind_cache_arguments(const CacheModel& model) {
  std::vector<std::string> arguments;
  const auto add = [&](const char* name, const std::optional<CacheLevelModel>& level) {
    if (!level || level->ways == 0 || level->line_bytes == 0) {
      throw ReplayError(std::string("the cache model to simulate lacks its ") + name +
                        " level; complete it with complete_cache_model");
    }
    arguments.push_back(std::string("--") + name + "=" + std::to_string(level->size_bytes) + "," +
                        std::to_string(level->ways) + "," + std::to_string(level->line_bytes));
  };
  add("I1", model.i1);
  add("D1", model.d1);
  add("LL", model.ll);
  return arguments;
}

namespace {

constexpr const char* kNotInstalled =
    "callgrind (Debian package valgrind) is not installed; install it (apt install valgrind) or "
    "use --metrics-backend perf";

// What `program --version` prints on stdout; nullopt when it cannot run or
// fails.
std::optional<std::string> version_of(const std::filesystem::path& program) {
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  const std::string path = program.string();
  char version_flag[] = "--version";
  char* argv[] = {const_cast<char*>(path.c_str()), version_flag, nullptr};
  pid_t child = 0;
  const int spawned = ::posix_spawn(&child, path.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_ends[1]);
  std::string output;
  if (spawned == 0) {
    char buffer[256];
    for (;;) {
      const ssize_t n = ::read(pipe_ends[0], buffer, sizeof buffer);
      if (n > 0 && output.size() < 4096) output.append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR)) break;
    }
  }
  ::close(pipe_ends[0]);
  if (spawned != 0) return std::nullopt;
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  while (!output.empty() && std::isspace(static_cast<unsigned char>(output.back()))) {
    output.pop_back();
  }
  return output;
}

}  // namespace

FoundValgrind find_valgrind(std::string_view search_path) {
  std::size_t start = 0;
  while (start <= search_path.size()) {
    const std::size_t end = std::min(search_path.find(':', start), search_path.size());
    const std::string_view folder = search_path.substr(start, end - start);
    start = end + 1;
    if (folder.empty()) continue;
    const std::filesystem::path program = std::filesystem::path(folder) / "valgrind";
    std::error_code error;
    if (!std::filesystem::is_regular_file(program, error) || ::access(program.c_str(), X_OK) != 0) {
      continue;
    }
    const auto version = version_of(program);
    if (!version || version->rfind("valgrind-", 0) != 0) {
      throw UsageError("valgrind at " + program.string() +
                       " does not run ('valgrind --version' fails); reinstall it (apt install "
                       "--reinstall valgrind) or use --metrics-backend perf");
    }
    return FoundValgrind{program, *version};
  }
  throw UsageError(kNotInstalled);
}

FoundValgrind find_valgrind() {
  const char* path = std::getenv("PATH");
  return find_valgrind(path != nullptr ? path : "");
}

bool valgrind_found() {
  try {
    find_valgrind();
    return true;
  } catch (const UsageError&) {
    return false;
  }
}

}  // namespace msprof::replay
