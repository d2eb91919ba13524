#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/recorder/record_run.h"

namespace msprof::test {

// msprof-replay and msprof-analyze, run in `workdir` with `args`.
RunResult replay(const std::vector<std::string>& args, const std::filesystem::path& workdir);
RunResult analyze(const std::vector<std::string>& args, const std::filesystem::path& workdir);

// A replay of `trace` with --format json and the result folder in `workdir`;
// `options` come after the defaults that keep it fast (3 passes, a 4 MiB
// cache flush: PoCL reports its whole L3 and more, which makes a flush take
// seconds).
struct JsonReplay {
  RunResult run;
  nlohmann::json summary;        // stdout, parsed; null when it was not JSON
  std::filesystem::path folder;  // the OPPROF_* folder, empty when none
};
JsonReplay replay_json(const std::filesystem::path& trace, const std::vector<std::string>& options,
                       const std::filesystem::path& workdir);

// What schemas/check_summary.py finds wrong in a summary.json, one line per
// violation of schemas/summary.schema.json; empty when it follows it.
// replay_json checks every summary.json it makes with it.
std::string summary_schema_problems(const std::filesystem::path& summary);

// The range of that name in a summary.json, or null.
const nlohmann::json* find_range(const nlohmann::json& summary, const std::string& name);
std::vector<std::string> kernel_names(const nlohmann::json& range);

// Lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix);

std::string read_text(const std::filesystem::path& path);

// The child of run_command's fork would write what our stdout still buffers
// (doctest's banner) once more: flush before every run.
void flush_before_fork();

}  // namespace msprof::test
