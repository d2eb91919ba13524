#include "replayer/callgrind/callgrind_client.h"

#include <valgrind/callgrind.h>

#include <sys/mman.h>

#include <algorithm>
#include <charconv>

#include "replayer/callgrind/simulated_counts.h"
#include "replayer/core/replay_error.h"

namespace msprof::replay {
namespace {

constexpr std::string_view kPrefix = "msprof ";

// Reads "key=<number>" at the front of `text`, and the space after it
// unless it is the last field, and moves past them.
template <typename Number>
bool take_field(std::string_view& text, std::string_view key, Number& value, bool last) {
  if (text.substr(0, key.size()) != key || text.size() == key.size() || text[key.size()] != '=') {
    return false;
  }
  text.remove_prefix(key.size() + 1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end == text.data()) return false;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  if (last) return text.empty();
  if (text.empty() || text.front() != ' ') return false;
  text.remove_prefix(1);
  return true;
}

}  // namespace

std::string dump_name(const DumpName& name) {
  return std::string(kPrefix) + "range=" + std::to_string(name.range_index) +
         (name.variant ? " variant=" + std::to_string(*name.variant) : std::string()) +
         " pass=" + std::to_string(name.pass_index) + " seq=" + std::to_string(name.seq);
}

std::optional<DumpName> parse_dump_name(std::string_view text) {
  if (text.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  text.remove_prefix(kPrefix.size());
  DumpName name;
  if (!take_field(text, "range", name.range_index, false)) return std::nullopt;
  if (text.substr(0, 8) == "variant=") {
    std::size_t variant = 0;
    if (!take_field(text, "variant", variant, false)) return std::nullopt;
    name.variant = variant;
  }
  if (!take_field(text, "pass", name.pass_index, false) ||
      !take_field(text, "seq", name.seq, true)) {
    return std::nullopt;
  }
  return name;
}

CallgrindCounters::CallgrindCounters(CacheModel model) : model_(std::move(model)) {
  std::uint64_t largest = 0;
  unsigned stride = 0;
  for (const auto* level : {&model_.d1, &model_.ll}) {
    if (!*level) continue;
    largest = std::max(largest, (*level)->size_bytes);
    if ((*level)->line_bytes != 0) {
      stride = stride == 0 ? (*level)->line_bytes : std::min(stride, (*level)->line_bytes);
    }
  }
  // Under LRU with power-of-two sets, a contiguous read of a cache's size
  // puts `ways` of its lines in every set, evicting all else; an eighth
  // more covers the few other accesses (the loop's own) that interleave.
  scratch_bytes_ = static_cast<std::size_t>(largest + largest / 8);
  if (stride != 0) scratch_stride_ = stride;
}

CallgrindCounters::~CallgrindCounters() {
  if (scratch_ != nullptr) ::munmap(scratch_, scratch_bytes_);
}

std::vector<std::vector<MetricGroup>> CallgrindCounters::passes(
    const std::vector<MetricGroup>& groups) const {
  std::vector<MetricGroup> simulated;
  for (const MetricGroup group : groups) {
    if (is_simulated(group)) simulated.push_back(group);
  }
  if (simulated.empty()) return {};
  return {simulated};
}

void CallgrindCounters::begin_range() {
  // Starting empties the simulated cache: every range's counting starts
  // from the same (empty) cache, whatever ranges came before it.
  CALLGRIND_START_INSTRUMENTATION;
}

void CallgrindCounters::end_range() {
  CALLGRIND_STOP_INSTRUMENTATION;
}

void CallgrindCounters::begin_pass(std::size_t range_index, unsigned pass_index,
                                   const std::vector<MetricGroup>&) {
  range_index_ = range_index;
  pass_index_ = pass_index;
}

void CallgrindCounters::begin_kernel(std::uint64_t) {
  CALLGRIND_ZERO_STATS;
}

std::vector<GroupCounts> CallgrindCounters::end_kernel(std::uint64_t seq) {
  const std::string name = dump_name(DumpName{range_index_, variant_, pass_index_, seq});
  CALLGRIND_DUMP_STATS_AT(name.c_str());
  return {};
}

bool CallgrindCounters::clear_cache() {
  if (scratch_bytes_ == 0) return false;
  // Mapped once: a fresh mapping each time would cost page faults and
  // could land elsewhere in the simulated sets.
  if (scratch_ == nullptr) {
    void* mapped = ::mmap(nullptr, scratch_bytes_, PROT_READ,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapped == MAP_FAILED) {
      throw ReplayError("cannot map " + std::to_string(scratch_bytes_ >> 20) +
                        " MiB to clear the simulated cache with; give a smaller cache model "
                        "(--cache-model LL=...) or --cache-control none");
    }
    scratch_ = mapped;
  }
  // The main thread runs no _pocl_kernel_* function, so nothing is collected.
  const volatile unsigned char* scratch = static_cast<const unsigned char*>(scratch_);
  unsigned char sink = 0;
  for (std::size_t offset = 0; offset < scratch_bytes_; offset += scratch_stride_) {
    sink = static_cast<unsigned char>(sink + scratch[offset]);
  }
  static_cast<void>(sink);
  return true;
}

std::vector<std::string> CallgrindCounters::notes() const {
  std::string levels;
  const auto add = [&](const char* name, const std::optional<CacheLevelModel>& level) {
    if (!level) return;
    levels += (levels.empty() ? " " : "; ") + std::string(name) + " " + level->text();
  };
  add("I1", model_.i1);
  add("D1", model_.d1);
  add("LL", model_.ll);
  return {
      "counts simulated by callgrind, caches" + levels +
          " (L2Cache and Memory count data accesses only, not instruction fetches)",
      "the simulated cache is cleared by reading " + std::to_string(scratch_bytes_ >> 10) +
          " KiB of scratch memory, one load per line: callgrind ignores CLFLUSH and cannot "
          "run CLFLUSHOPT",
  };
}

}  // namespace msprof::replay
