#include "analyzer/core/replay_result_reader.h"

#include <fstream>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analyzer/core/analyze_error.h"

namespace msprof::analyze {

// Ordered, so that metric groups and columns keep the order msprof-replay
// wrote them in (metric_columns' order), which the tables follow.
using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

// The fields read are those of schemas/summary.schema.json: each function
// that reads an object names the schema's definitions it reads after
// "schema:", and tests/analyzer/check_summary_schema.py checks every key
// it reads against them.

constexpr const char* kFormat = "msprof-replay-result";
constexpr int kVersion = 2;

// A field that is absent (an older msprof-replay did not write it) or null
// reads as empty; a field of another type than the schema's is damage.
class WrongType : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// schema: (none)
const json& expect_object(const json& j, const char* what) {
  if (!j.is_object()) throw WrongType(std::string(what) + " is not an object");
  return j;
}

// The object or array at `key`; nullptr when absent or null.
const json* object_at(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return nullptr;
  if (!j.at(key).is_object()) throw WrongType(std::string(key) + " is not an object");
  return &j.at(key);
}
const json* array_at(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return nullptr;
  if (!j.at(key).is_array()) throw WrongType(std::string(key) + " is not an array");
  return &j.at(key);
}

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

bool flag(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return false;
  return j.at(key).get<bool>();
}

// schema: statistics
PassStats stats(const json& j, const char* key) {
  PassStats s;
  const json* found = object_at(j, key);
  if (found == nullptr) return s;
  const json& v = *found;
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

// schema: (none)
// The kernel_metrics object's keys are the groups, and a group's keys other
// than "backend" its columns (replayer/core/metric_groups.cc), so both are
// read by walking them rather than by name.
std::vector<KernelMetricGroup> kernel_metrics(const json& j) {
  std::vector<KernelMetricGroup> out;
  for (const auto& [group, columns] : j.items()) {
    expect_object(columns, "a kernel's metric group");
    KernelMetricGroup g;
    g.group = group;
    for (const auto& [column, value] : columns.items()) {
      if (column == "backend") {
        g.backend = value.get<std::string>();
      } else if (value.is_null()) {
        g.columns.emplace_back(column, std::numeric_limits<double>::quiet_NaN());
      } else {
        g.columns.emplace_back(column, value.get<double>());
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

// schema: cache_level
CacheLevel cache_level(const std::string& name, const json& j) {
  expect_object(j, "a cache level");
  return CacheLevel{name, count(j, "size_bytes"), count(j, "ways"), count(j, "line_bytes")};
}

// schema: metrics
ResultMetrics metrics(const json& j) {
  ResultMetrics m;
  m.groups = list<std::string>(j, "groups");
  if (const json* backends = object_at(j, "backends")) {
    for (const auto& [group, backend] : backends->items())
      m.backends.emplace_back(group, backend.get<std::string>());
  }
  m.counting_passes = count(j, "counting_passes");
  // Its levels (I1, D1, LL) in the order written; a level may be null.
  if (const json* model = object_at(j, "cache_model")) {
    for (const auto& [name, level] : model->items()) {
      if (!level.is_null()) m.cache_model.push_back(cache_level(name, level));
    }
  }
  m.simulated_device = text(j, "simulated_device");
  m.notes = list<std::string>(j, "notes");
  return m;
}

// schema: kernel
ResultKernel kernel(const json& j) {
  expect_object(j, "a kernel");
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
  if (const json* metrics = object_at(j, "metrics")) k.metrics = kernel_metrics(*metrics);
  return k;
}

// schema: variant.launch_metrics
VariantLaunchMetrics variant_launch(const json& j) {
  expect_object(j, "a variant's counted launch");
  VariantLaunchMetrics l;
  l.seq = count(j, "seq");
  l.name = text(j, "name");
  if (const json* metrics = object_at(j, "metrics")) l.metrics = kernel_metrics(*metrics);
  return l;
}

// schema: variant, verification
ResultVariant variant(const json& j) {
  expect_object(j, "a variant");
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
  v.beyond_spread = flag(j, "beyond_spread");
  if (const json* verification = object_at(j, "verification"))
    v.verification = text(*verification, "status");
  // Absent in results from before variants were counted: none.
  if (const json* launches = array_at(j, "launch_metrics")) {
    for (const auto& l : *launches) v.launch_metrics.push_back(variant_launch(l));
  }
  return v;
}

// schema: range, verification, buffer_verification
ResultRange range(const json& j) {
  expect_object(j, "a range");
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
  if (const json* verification = object_at(j, "verification")) {
    const json& v = *verification;
    r.verification = text(v, "status");
    // Version 1 said "off" and "unavailable" for what is now "not verified".
    if (r.verification == "off" || r.verification == "unavailable") r.verification = "not verified";
    r.verification_reason = text(v, "reason");
    if (const json* buffers = array_at(v, "buffers")) {
      for (const auto& b : *buffers) {
        expect_object(b, "a buffer verification");
        const std::string status = text(b, "status");
        if (status.empty() || status == "bit-exact") continue;
        std::string names;
        for (const auto& n : list<std::string>(b, "arg_names"))
          names += (names.empty() ? "" : "/") + n;
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
  if (const json* kernels = array_at(j, "kernels")) {
    for (const auto& k : *kernels) r.kernels.push_back(kernel(k));
  }
  if (const json* variants = array_at(j, "variants")) {
    for (const auto& v : *variants) r.variants.push_back(variant(v));
  }
  r.best_variant = text(j, "best_variant");
  return r;
}

}  // namespace

// schema: (none)
std::string ReplayResult::label() const {
  std::string out = (replay_mode.empty() ? std::string("unknown") : replay_mode) + " mode";
  if (launch_count) out += ", " + std::to_string(launch_count) + " passes";
  if (!created.empty()) out += ", " + created;
  return out;
}

// schema: (none)
const double* KernelMetricGroup::find(const std::string& column) const {
  for (const auto& [name, value] : columns) {
    if (name == column) return &value;
  }
  return nullptr;
}

// schema: (none)
const KernelMetricGroup* ResultKernel::find_metrics(const std::string& group) const {
  for (const auto& g : metrics) {
    if (g.group == group) return &g;
  }
  return nullptr;
}

// schema: (none)
std::string ResultMetrics::cache_model_text() const {
  std::string out;
  for (const auto& level : cache_model) {
    out += (out.empty() ? "" : "; ") + level.name + " " + std::to_string(level.size_bytes) +
           " B, " + std::to_string(level.ways) + "-way, " + std::to_string(level.line_bytes) +
           " B lines";
  }
  return out;
}

// schema: (none)
std::string ResultMetrics::groups_text() const {
  std::string out;
  for (const auto& group : groups) {
    std::string backend;
    for (const auto& [g, b] : backends) {
      if (g == group) backend = b;
    }
    out += (out.empty() ? "" : ", ") + group + (backend.empty() ? "" : " (" + backend + ")");
  }
  return out;
}

// schema: (root), device, options
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
    if (const json* device = object_at(j, "device")) {
      r.device_name = text(*device, "name");
      r.platform = text(*device, "platform");
    }
    if (const json* options = object_at(j, "options")) {
      const json& o = *options;
      r.replay_mode = text(o, "replay_mode");
      r.cache_control = text(o, "cache_control");
      r.launch_count = count(o, "launch_count");
      r.warm_up = count(o, "warm_up");
    }
    r.notes = list<std::string>(j, "notes");
    // Absent in results from before --metrics: nothing counted.
    if (const json* m = object_at(j, "metrics")) r.metrics = metrics(*m);
    const json* ranges = array_at(j, "ranges");
    if (ranges == nullptr) throw WrongType("it has no ranges");
    for (const auto& range_json : *ranges) r.ranges.push_back(range(range_json));
    return r;
  } catch (const json::exception& e) {
    throw AnalyzeError(file.string() + " is a damaged replay result (" + e.what() +
                       "); replay the trace again");
  } catch (const WrongType& e) {
    throw AnalyzeError(file.string() + " is a damaged replay result (" + e.what() +
                       "); replay the trace again");
  }
}

}  // namespace msprof::analyze
