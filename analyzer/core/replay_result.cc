#include "analyzer/core/replay_result.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "analyzer/core/analyze_error.h"

namespace msprof::analyze {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "msprof-replay-result";
constexpr int kVersion = 1;

PassStats stats(const json& j, const char* key) {
  PassStats s;
  if (!j.contains(key) || j.at(key).is_null()) return s;
  const json& v = j.at(key);
  s.min = v.value("min", 0.0);
  s.median = v.value("median", 0.0);
  s.mean = v.value("mean", 0.0);
  s.max = v.value("max", 0.0);
  s.stddev = v.value("stddev", 0.0);
  return s;
}

template <typename T>
std::vector<T> list(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return {};
  return j.at(key).get<std::vector<T>>();
}

ResultKernel kernel(const json& j) {
  ResultKernel k;
  k.launch = j.value("launch", std::uint64_t{0});
  k.seq = j.value("seq", std::uint64_t{0});
  k.name = j.value("name", std::string());
  k.folder = j.value("folder", std::string());
  k.global_size = list<std::uint64_t>(j, "global_size");
  k.local_size = list<std::uint64_t>(j, "local_size");
  k.work_groups = j.value("work_groups", std::uint64_t{0});
  k.bytes = j.value("bytes", std::uint64_t{0});
  k.bandwidth_gbps = j.value("bandwidth_gbps", 0.0);
  k.duration = stats(j, "duration_us");
  k.queued = stats(j, "queued_us");
  k.passes_us = list<double>(j, "passes_us");
  k.original_us = j.value("original_us", 0.0);
  k.ratio_to_original = j.value("ratio_to_original", 0.0);
  return k;
}

ResultRange range(const json& j) {
  ResultRange r;
  r.name = j.at("name").get<std::string>();
  r.status = j.value("status", std::string());
  r.reason = j.value("reason", std::string());
  r.program_source = j.value("program_source", std::string());
  r.passes = j.value("passes", std::uint64_t{0});
  r.wall = stats(j, "wall_us");
  r.kernel_sum = stats(j, "kernel_sum_us");
  r.restored_bytes = j.value("restored_bytes", std::uint64_t{0});
  if (j.contains("verification") && j.at("verification").is_object()) {
    r.verification = j.at("verification").value("status", std::string());
  }
  if (j.contains("kernels")) {
    for (const auto& k : j.at("kernels")) r.kernels.push_back(kernel(k));
  }
  return r;
}

}  // namespace

std::string ReplayResult::label() const {
  std::string out = (replay_mode.empty() ? std::string("unknown") : replay_mode) + " mode";
  if (launch_count) out += ", " + std::to_string(launch_count) + " passes";
  if (!created.empty()) out += ", " + created;
  return out;
}

ReplayResult load_replay_result(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    throw AnalyzeError(
        path.string() +
        " does not exist; give an OPPROF_* folder written by msprof-replay or its summary.json");
  }
  fs::path file = path;
  if (fs::is_directory(path, ec)) {
    file = path / "summary.json";
    if (!fs::is_regular_file(file, ec)) {
      throw AnalyzeError(path.string() +
                         " is not a replay result (it has no summary.json); give an OPPROF_* "
                         "folder written by msprof-replay");
    }
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw AnalyzeError("cannot read " + file.string() + "; check its permissions");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception&) {
    throw AnalyzeError(
        file.string() +
        " is not JSON, so not a replay result; give a summary.json written by msprof-replay");
  }
  if (!j.is_object() || j.value("format", std::string()) != kFormat) {
    throw AnalyzeError(file.string() + " is not a replay result (its \"format\" is not \"" +
                       kFormat + "\"); give a summary.json written by msprof-replay");
  }
  try {
    const int version = j.at("version").get<int>();
    if (version > kVersion) {
      throw AnalyzeError(file.string() + " is a replay result of version " +
                         std::to_string(version) + "; this msprof-analyze reads version " +
                         std::to_string(kVersion) + ": update msprof-analyze");
    }
    ReplayResult r;
    r.path = path.string();
    r.trace = j.value("trace", std::string());
    r.created = j.value("created", std::string());
    if (j.contains("device") && j.at("device").is_object()) {
      r.device_name = j.at("device").value("name", std::string());
      r.platform = j.at("device").value("platform", std::string());
    }
    if (j.contains("options") && j.at("options").is_object()) {
      const json& o = j.at("options");
      r.replay_mode = o.value("replay_mode", std::string());
      r.cache_control = o.value("cache_control", std::string());
      r.launch_count = o.value("launch_count", std::uint64_t{0});
      r.warm_up = o.value("warm_up", std::uint64_t{0});
    }
    for (const auto& range_json : j.at("ranges")) r.ranges.push_back(range(range_json));
    return r;
  } catch (const json::exception& e) {
    throw AnalyzeError(file.string() + " is a damaged replay result (" + e.what() +
                       "); replay the trace again");
  }
}

}  // namespace msprof::analyze
