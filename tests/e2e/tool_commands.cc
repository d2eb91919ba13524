#include "tests/e2e/tool_commands.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

namespace msprof::test {
namespace fs = std::filesystem;

void flush_before_fork() {
  std::fflush(stdout);
  std::fflush(stderr);
}

RunResult replay(const std::vector<std::string>& args, const fs::path& workdir) {
  flush_before_fork();
  std::vector<std::string> argv{MSPROF_REPLAY_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, workdir);
}

RunResult analyze(const std::vector<std::string>& args, const fs::path& workdir) {
  flush_before_fork();
  std::vector<std::string> argv{MSPROF_ANALYZE_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, workdir);
}

JsonReplay replay_json(const fs::path& trace, const std::vector<std::string>& options,
                       const fs::path& workdir) {
  const fs::path output = workdir / "results";
  fs::create_directories(output);
  std::vector<std::string> args{trace.string(), "--format", "json", "--output", output.string()};
  for (const auto& [option, value] : {std::pair{"--launch-count", "3"}, {"--cache-size", "4M"}}) {
    if (std::find(options.begin(), options.end(), option) != options.end()) continue;
    args.insert(args.end(), {option, value});
  }
  args.insert(args.end(), options.begin(), options.end());
  JsonReplay r;
  std::vector<fs::path> existing;
  for (const auto& e : fs::directory_iterator(output)) existing.push_back(e.path());
  r.run = replay(args, workdir);
  r.summary = nlohmann::json::parse(r.run.out, nullptr, /*allow_exceptions=*/false);
  if (r.summary.is_discarded()) r.summary = nullptr;
  for (const auto& e : fs::directory_iterator(output)) {
    if (std::find(existing.begin(), existing.end(), e.path()) == existing.end())
      r.folder = e.path();
  }
  if (!r.folder.empty() && fs::exists(r.folder / "summary.json")) {
    const std::string problems = summary_schema_problems(r.folder / "summary.json");
    INFO("summary.json against schemas/summary.schema.json:\n", problems);
    CHECK(problems.empty());
  }
  return r;
}

std::string summary_schema_problems(const fs::path& summary) {
  flush_before_fork();
  const auto run =
      run_command({MSPROF_PYTHON, std::string(MSPROF_SOURCE_DIR) + "/schemas/check_summary.py",
                   summary.string()},
                  summary.parent_path());
  return run.exit_code == 0 ? "" : run.out + run.err;
}

const nlohmann::json* find_range(const nlohmann::json& summary, const std::string& name) {
  if (!summary.is_object() || !summary.contains("ranges")) return nullptr;
  for (const auto& r : summary["ranges"]) {
    if (r.value("name", "") == name) return &r;
  }
  return nullptr;
}

std::vector<std::string> kernel_names(const nlohmann::json& range) {
  std::vector<std::string> names;
  for (const auto& k : range.at("kernels")) names.push_back(k.at("name").get<std::string>());
  return names;
}

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  }
  return found;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace msprof::test
