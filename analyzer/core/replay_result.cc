#include "analyzer/core/replay_result.h"

#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "analyzer/core/analyze_error.h"

namespace msprof::analyze {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "msprof-replay-result";
constexpr int kVersion = 2;

// msprof-replay writes non-finite numbers as null; they read as NaN here.
double number(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::numeric_limits<double>::quiet_NaN();
  return j.at(key).get<double>();
}

std::uint64_t count(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return 0;
  return j.at(key).get<std::uint64_t>();
}

std::string text(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return {};
  return j.at(key).get<std::string>();
}

PassStats stats(const json& j, const char* key) {
  PassStats s;
  if (!j.contains(key) || j.at(key).is_null()) return s;
  const json& v = j.at(key);
  s.min = number(v, "min");
  s.median = number(v, "median");
  s.mean = number(v, "mean");
  s.max = number(v, "max");
  s.stddev = number(v, "stddev");
  return s;
}

template <typename T>
std::vector<T> list(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return {};
  return j.at(key).get<std::vector<T>>();
}

ResultKernel kernel(const json& j) {
  ResultKernel k;
  k.launch = count(j, "launch");
  k.seq = count(j, "seq");
  k.name = text(j, "name");
  k.folder = text(j, "folder");
  k.global_size = list<std::uint64_t>(j, "global_size");
  k.local_size = list<std::uint64_t>(j, "local_size");
  k.work_groups = count(j, "work_groups");
  k.bytes = count(j, "bytes");
  k.bandwidth_gbps = number(j, "bandwidth_gbps");
  k.duration = stats(j, "duration_us");
  k.queued = stats(j, "queued_us");
  k.passes_us = list<double>(j, "passes_us");
  k.original_us = number(j, "original_us");
  k.ratio_to_original = number(j, "ratio_to_original");
  return k;
}

ResultVariant variant(const json& j) {
  ResultVariant v;
  v.label = text(j, "label");
  v.status = text(j, "status");
  v.reason = text(j, "reason");
  v.changed_kernels = list<std::string>(j, "changed_kernels");
  v.changed = stats(j, "changed_us");
  v.recorded_changed = stats(j, "recorded_changed_us");
  v.wall = stats(j, "wall_us");
  v.ratio = number(j, "ratio");
  v.changed_ratio = number(j, "changed_ratio");
  v.beyond_spread = j.contains("beyond_spread") && j.at("beyond_spread").is_boolean() &&
                    j.at("beyond_spread").get<bool>();
  if (j.contains("verification") && j.at("verification").is_object())
    v.verification = text(j.at("verification"), "status");
  return v;
}

ResultRange range(const json& j) {
  ResultRange r;
  r.name = j.at("name").get<std::string>();
  r.status = text(j, "status");
  r.reason = text(j, "reason");
  r.program_source = text(j, "program_source");
  r.passes = count(j, "passes");
  r.wall = stats(j, "wall_us");
  r.kernel_sum = stats(j, "kernel_sum_us");
  r.restore = stats(j, "restore_us");
  r.restored_bytes = count(j, "restored_bytes");
  if (j.contains("verification") && j.at("verification").is_object()) {
    const json& v = j.at("verification");
    r.verification = text(v, "status");
    // Version 1 said "off" and "unavailable" for what is now "not verified".
    if (r.verification == "off" || r.verification == "unavailable") r.verification = "not verified";
    r.verification_reason = text(v, "reason");
    if (v.contains("buffers") && v.at("buffers").is_array()) {
      for (const auto& b : v.at("buffers")) {
        const std::string status = text(b, "status");
        if (status.empty() || status == "bit-exact") continue;
        std::string names;
        if (b.contains("arg_names") && b.at("arg_names").is_array()) {
          for (const auto& n : b.at("arg_names")) {
            if (n.is_string()) names += (names.empty() ? "" : "/") + n.get<std::string>();
          }
        }
        r.verification_buffers.push_back(
            "buffer " + std::to_string(count(b, "buffer")) + " (" +
            (names.empty() ? "" : names + ", ") + text(b, "element") + "): " + status +
            (status == "nondeterministic"
                 ? ""
                 : ", first index " + std::to_string(count(b, "first_index")) + ", " +
                       std::to_string(count(b, "differing")) + " differ"));
      }
    }
  }
  if (j.contains("kernels")) {
    for (const auto& k : j.at("kernels")) r.kernels.push_back(kernel(k));
  }
  if (j.contains("variants") && j.at("variants").is_array()) {
    for (const auto& v : j.at("variants")) r.variants.push_back(variant(v));
  }
  r.best_variant = text(j, "best_variant");
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
  if (!j.is_object() || !j.contains("format") || j.at("format") != kFormat) {
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
    r.trace = text(j, "trace");
    r.created = text(j, "created");
    if (j.contains("device") && j.at("device").is_object()) {
      r.device_name = text(j.at("device"), "name");
      r.platform = text(j.at("device"), "platform");
    }
    if (j.contains("options") && j.at("options").is_object()) {
      const json& o = j.at("options");
      r.replay_mode = text(o, "replay_mode");
      r.cache_control = text(o, "cache_control");
      r.launch_count = count(o, "launch_count");
      r.warm_up = count(o, "warm_up");
    }
    r.notes = list<std::string>(j, "notes");
    for (const auto& range_json : j.at("ranges")) r.ranges.push_back(range(range_json));
    return r;
  } catch (const json::exception& e) {
    throw AnalyzeError(file.string() + " is a damaged replay result (" + e.what() +
                       "); replay the trace again");
  }
}

}  // namespace msprof::analyze
