#include "replayer/core/metric_groups.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "replayer/core/replay_error.h"

namespace msprof::replay {

namespace {

struct GroupName {
  MetricGroup group;
  std::string_view name;
};
constexpr std::array kGroupNames{
    GroupName{MetricGroup::BasicInfo, "BasicInfo"},
    GroupName{MetricGroup::L2Cache, "L2Cache"},
    GroupName{MetricGroup::Memory, "Memory"},
    GroupName{MetricGroup::Instructions, "Instructions"},
    GroupName{MetricGroup::HostActivity, "HostActivity"},
};

std::string group_list() {
  std::string list;
  for (const auto& g : kGroupNames) list += std::string(g.name) + ", ";
  return list + "Default";
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

bool is_power_of_two(std::uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  text = trim(text);
  std::uint64_t scale = 1;
  if (!text.empty()) {
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
      case 'K':
        scale = 1ull << 10;
        break;
      case 'M':
        scale = 1ull << 20;
        break;
      case 'G':
        scale = 1ull << 30;
        break;
      default:
        break;
    }
    if (scale != 1) text.remove_suffix(1);
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  if (value > UINT64_MAX / scale) return std::nullopt;
  return value * scale;
}

namespace {

std::optional<unsigned> parse_count(std::string_view text) {
  const auto value = parse_byte_size(text);
  if (!value || *value > 1u << 20) return std::nullopt;
  return static_cast<unsigned>(*value);
}

}  // namespace

std::string_view metric_group_name(MetricGroup group) {
  for (const auto& g : kGroupNames) {
    if (g.group == group) return g.name;
  }
  return "BasicInfo";
}

std::string_view counter_backend_name(CounterBackendChoice choice) {
  switch (choice) {
    case CounterBackendChoice::Auto:
      return "auto";
    case CounterBackendChoice::Perf:
      return "perf";
    case CounterBackendChoice::Sim:
      return "sim";
  }
  return "auto";
}

const std::vector<MetricGroup>& all_metric_groups() {
  static const std::vector<MetricGroup> groups = [] {
    std::vector<MetricGroup> all;
    for (const auto& g : kGroupNames) all.push_back(g.group);
    return all;
  }();
  return groups;
}

std::vector<MetricGroup> parse_metric_groups(std::string_view text) {
  std::vector<bool> asked(kGroupNames.size(), false);
  asked[0] = true;
  std::size_t start = 0;
  bool any = false;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find_first_of(",|", start), text.size());
    const std::string_view word = trim(text.substr(start, end - start));
    start = end + 1;
    if (word.empty()) continue;
    any = true;
    if (word == "Default" || word == "default") {
      std::fill(asked.begin(), asked.end(), true);
      continue;
    }
    const auto it = std::find_if(kGroupNames.begin(), kGroupNames.end(),
                                 [&](const GroupName& g) { return g.name == word; });
    if (it == kGroupNames.end()) {
      throw UsageError("unknown metric group '" + std::string(word) + "'; the groups are " +
                       group_list() + " (--list-metrics describes them)");
    }
    asked[static_cast<std::size_t>(it - kGroupNames.begin())] = true;
  }
  if (!any) throw UsageError("--metrics names no group; the groups are " + group_list());
  std::vector<MetricGroup> groups;
  for (std::size_t i = 0; i < kGroupNames.size(); ++i) {
    if (asked[i]) groups.push_back(kGroupNames[i].group);
  }
  return groups;
}

const std::vector<MetricColumn>& metric_columns(MetricGroup group) {
  // The last level is what msprof op calls L2: the cache before memory.
  static const std::vector<MetricColumn> l2{
      {"read_cache_hit", "data reads that hit in the last-level cache"},
      {"read_cache_miss", "data reads that missed the last-level cache (went to memory)"},
      {"write_cache_hit", "data writes that hit in the last-level cache"},
      {"write_cache_miss", "data writes that missed the last-level cache"},
      {"total_hit_rate(%)", "last-level hits over last-level accesses, reads and writes"},
  };
  static const std::vector<MetricColumn> memory{
      {"l1_read_requests", "data reads issued to the first-level cache"},
      {"l1_write_requests", "data writes issued to the first-level cache"},
      {"l1_read_miss", "data reads that missed the first-level cache"},
      {"l1_write_miss", "data writes that missed the first-level cache"},
      {"l1_hit_rate(%)", "first-level hits over the first-level requests counted"},
      {"ll_to_l1_bytes", "bytes the first level fetched from the last level (misses x line)"},
      {"memory_to_ll_bytes", "bytes the last level fetched from memory (misses x line)"},
  };
  static const std::vector<MetricColumn> instructions{
      {"instructions", "instructions executed"},
      {"cycles", "CPU cycles (hardware counters only)"},
      {"ipc", "instructions per cycle (hardware counters only)"},
      {"loads", "data reads (memory instructions' loads)"},
      {"stores", "data writes"},
      {"branches", "branches executed, conditional and indirect"},
      {"branch_misses", "branches mispredicted"},
      {"branch_miss_rate(%)", "mispredicted over executed branches"},
  };
  static const std::vector<MetricColumn> host{
      {"task_clock(us)", "CPU time the counted threads ran"},
      {"page_faults", "page faults the counted threads took"},
      {"context_switches", "times the counted threads were switched out"},
      {"cpu_migrations", "times the counted threads moved to another CPU"},
  };
  static const std::vector<MetricColumn> none;
  switch (group) {
    case MetricGroup::L2Cache:
      return l2;
    case MetricGroup::Memory:
      return memory;
    case MetricGroup::Instructions:
      return instructions;
    case MetricGroup::HostActivity:
      return host;
    case MetricGroup::BasicInfo:
      break;
  }
  return none;
}

std::optional<double> GroupCounts::value(std::string_view column) const {
  for (const auto& [name, v] : values) {
    if (name == column) return v;
  }
  return std::nullopt;
}

std::uint64_t CacheLevelModel::sets() const {
  const std::uint64_t per_set = static_cast<std::uint64_t>(ways) * line_bytes;
  return per_set == 0 ? 0 : size_bytes / per_set;
}

std::string CacheLevelModel::text() const {
  return std::to_string(size_bytes) + " B, " + std::to_string(ways) + "-way, " +
         std::to_string(line_bytes) + " B lines";
}

void add_cache_model_spec(CacheModel& model, std::string_view spec) {
  const std::string shown(spec);
  const auto bad = [&](const std::string& why) {
    return UsageError("--cache-model '" + shown + "': " + why +
                      "; write LEVEL=SIZE[,WAYS[,LINE]] with LEVEL I1, D1 or LL, e.g. "
                      "LL=4M,16,64");
  };
  const std::size_t eq = spec.find('=');
  if (eq == std::string_view::npos) throw bad("no '='");
  const std::string_view level = trim(spec.substr(0, eq));
  std::optional<CacheLevelModel>* slot = nullptr;
  if (level == "I1") slot = &model.i1;
  if (level == "D1") slot = &model.d1;
  if (level == "LL" || level == "L2" || level == "L3") slot = &model.ll;
  if (slot == nullptr) throw bad("unknown level '" + std::string(level) + "'");
  std::vector<std::string_view> fields;
  std::string_view rest = spec.substr(eq + 1);
  for (std::size_t start = 0; start <= rest.size();) {
    const std::size_t end = std::min(rest.find(',', start), rest.size());
    fields.push_back(rest.substr(start, end - start));
    start = end + 1;
  }
  if (fields.size() > 3) throw bad("more than three fields");
  CacheLevelModel level_model;
  const auto size = parse_byte_size(fields[0]);
  if (!size || *size == 0) throw bad("'" + std::string(fields[0]) + "' is not a size");
  level_model.size_bytes = *size;
  if (fields.size() > 1) {
    const auto ways = parse_count(fields[1]);
    if (!ways || *ways == 0) throw bad("'" + std::string(fields[1]) + "' is not a way count");
    level_model.ways = *ways;
  }
  if (fields.size() > 2) {
    const auto line = parse_count(fields[2]);
    if (!line || !is_power_of_two(*line) || *line < 16) {
      throw bad("the line size '" + std::string(fields[2]) +
                "' is not a power of two of at least 16 bytes");
    }
    level_model.line_bytes = *line;
  }
  *slot = level_model;
}

CacheModel complete_cache_model(const CacheModel& model, const CacheModel& device) {
  CacheModel full;
  const auto complete = [](const char* name, const std::optional<CacheLevelModel>& asked,
                           const std::optional<CacheLevelModel>& fallback) {
    if (!fallback && (!asked || asked->ways == 0 || asked->line_bytes == 0)) {
      throw UsageError(std::string("the device describes no ") + name +
                       " cache; give it whole with --cache-model " + name + "=SIZE,WAYS,LINE");
    }
    CacheLevelModel level = asked ? *asked : *fallback;
    if (level.ways == 0) level.ways = fallback->ways;
    if (level.line_bytes == 0) level.line_bytes = fallback->line_bytes;
    const std::uint64_t sets = level.sets();
    if (level.size_bytes % (static_cast<std::uint64_t>(level.ways) * level.line_bytes) != 0 ||
        !is_power_of_two(sets)) {
      // The simulator indexes sets by address bits.
      std::uint64_t ways_fit = 0;
      for (std::uint64_t w = 1; w <= 64; ++w) {
        const std::uint64_t per = w * level.line_bytes;
        if (level.size_bytes % per == 0 && is_power_of_two(level.size_bytes / per)) {
          ways_fit = w;
          if (w >= level.ways) break;
        }
      }
      throw UsageError(std::string("cache model ") + name + " (" + level.text() + ") has " +
                       std::to_string(sets) + " sets, and the simulator needs a power of two" +
                       (ways_fit != 0 ? "; give " + std::to_string(ways_fit) + " ways (" + name +
                                            "=" + std::to_string(level.size_bytes) + "," +
                                            std::to_string(ways_fit) + "," +
                                            std::to_string(level.line_bytes) + ")"
                                      : "; pick a size that is ways x line x a power of two"));
    }
    return level;
  };
  full.i1 = complete("I1", model.i1, device.i1);
  full.d1 = complete("D1", model.d1, device.d1);
  full.ll = complete("LL", model.ll, device.ll);
  return full;
}

}  // namespace msprof::replay
