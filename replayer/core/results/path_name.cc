#include "replayer/core/results/path_name.h"

namespace msprof::replay {

namespace {
constexpr std::size_t kMaxComponent = 100;
}

std::string sanitize_path_component(std::string_view name) {
  std::string out;
  for (char ch : name.substr(0, kMaxComponent)) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.';
    out += keep ? ch : '_';
  }
  if (out.empty() || out.find_first_not_of('.') == std::string::npos) out = "_" + out;
  return out;
}

}  // namespace msprof::replay
