#include "format/trace_error.h"

namespace msprof::trace {
namespace {

std::string with_offset(const std::string& what, std::optional<std::uint64_t> offset) {
  if (!offset) return what;
  return what + " (at file offset " + std::to_string(*offset) + ")";
}

}  // namespace

TraceError::TraceError(const std::string& what, std::optional<std::uint64_t> offset)
    : std::runtime_error(with_offset(what, offset)), offset_(offset) {}

}  // namespace msprof::trace
