#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/core/object_table.h"

namespace msprof::analyze {

// What `show` prints: a range's commands in order, every argument, and the
// state of each buffer before and after, with whether the range writes it.
std::string range_text(const ObjectTable& table, const trace::Range& range);
nlohmann::ordered_json range_json(const ObjectTable& table, const trace::Range& range);

// Whether a range writes a buffer, judged by its state hashes.
enum class Written { Yes, No, Unknown };
Written buffer_written(const trace::Range& range, trace::CaptureId buffer);
const char* written_name(Written written);

}  // namespace msprof::analyze
