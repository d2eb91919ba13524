#include "analyzer/core/object_table.h"

#include <charconv>

#include "analyzer/core/analyze_error.h"
#include "printable_text/printable_text.h"

namespace msprof::analyze {

using namespace msprof::trace;

ObjectTable::ObjectTable(const TraceReader& reader) {
  bool have_info = false;
  for (const auto& entry : reader.records()) {
    Record record = reader.read_record(entry);
    std::visit(
        [&](auto&& value) {
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, TraceInfo>) {
            // A later trace info supersedes an earlier one (more devices seen).
            info_ = std::move(value);
            have_info = true;
          } else if constexpr (std::is_same_v<T, Context>) {
            contexts_.emplace(value.id, std::move(value));
          } else if constexpr (std::is_same_v<T, Program>) {
            programs_.emplace(value.id, std::move(value));
          } else if constexpr (std::is_same_v<T, Kernel>) {
            kernels_.emplace(value.id, std::move(value));
          } else if constexpr (std::is_same_v<T, Buffer>) {
            buffers_.emplace(value.id, std::move(value));
          } else if constexpr (std::is_same_v<T, Queue>) {
            queues_.emplace(value.id, std::move(value));
          } else if constexpr (std::is_same_v<T, Sampler>) {
            samplers_.emplace(value.id, std::move(value));
          } else if constexpr (std::is_same_v<T, Range>) {
            ranges_.push_back(std::move(value));
          }
        },
        record);
  }
  if (!have_info) throw CorruptError("trace has no trace-info record");
}

namespace {

template <typename T>
const T* find_in(const std::map<CaptureId, T>& map, CaptureId id) {
  const auto it = map.find(id);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

const Kernel* ObjectTable::kernel(CaptureId id) const {
  return find_in(kernels_, id);
}
const Program* ObjectTable::program(CaptureId id) const {
  return find_in(programs_, id);
}
const Buffer* ObjectTable::buffer(CaptureId id) const {
  return find_in(buffers_, id);
}

std::string ObjectTable::kernel_name(CaptureId id) const {
  const Kernel* k = kernel(id);
  return k ? k->name : "kernel#" + std::to_string(id);
}

const Range& ObjectTable::find_range(const std::string& spec) const {
  for (const auto& range : ranges_) {
    if (range.name == spec) return range;
  }
  CaptureId id = 0;
  const auto [end, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), id);
  if (ec == std::errc{} && end == spec.data() + spec.size()) {
    for (const auto& range : ranges_) {
      if (range.id == id) return range;
    }
  }
  std::string names;
  for (const auto& range : ranges_) names += (names.empty() ? "" : ", ") + printable(range.name);
  throw AnalyzeError("no range '" + printable(spec) +
                     "' in the trace; its ranges are: " + (names.empty() ? "(none)" : names));
}

}  // namespace msprof::analyze
