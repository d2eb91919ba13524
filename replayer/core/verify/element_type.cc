#include "replayer/core/verify/element_type.h"

#include <cctype>
#include <utility>
#include <vector>

namespace msprof::replay {

namespace {

// CL_KERNEL_ARG_TYPE_QUALIFIER's const bit; the core knows no OpenCL
// header, and the value is the same for every API that reports it so.
constexpr std::uint64_t kTypeQualifierConst = 1;

std::string trimmed(std::string_view text) {
  std::size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  return std::string(text.substr(b, e - b));
}

// "const __global float4 *" -> "float4"; keeps "struct x" whole.
std::string base_type(std::string_view type_name) {
  std::string text(type_name);
  while (!text.empty() &&
         (text.back() == '*' || std::isspace(static_cast<unsigned char>(text.back()))))
    text.pop_back();
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t j = i;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    const std::string word = text.substr(i, j - i);
    i = j;
    static const char* const kQualifiers[] = {"const",  "volatile",   "restrict", "__global",
                                              "global", "__constant", "constant", "__local",
                                              "local",  "__private",  "private",  "unsigned"};
    bool qualifier = false;
    for (const char* q : kQualifiers) qualifier = qualifier || word == q;
    if (word == "unsigned") out = "u" + out;  // "unsigned int" spelled out
    if (qualifier || word.empty()) continue;
    out += (out.empty() || out == "u" ? "" : " ") + word;
  }
  return trimmed(out);
}

// "float4" -> "float"; "int16" -> "int"; "int" stays.
std::string without_vector_width(const std::string& type) {
  std::size_t end = type.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(type[end - 1]))) --end;
  const std::string head = type.substr(0, end);
  const std::string width = type.substr(end);
  if (width.empty() || head.empty()) return type;
  static const char* const kWidths[] = {"2", "3", "4", "8", "16"};
  for (const char* w : kWidths) {
    if (width == w) return head;
  }
  return type;
}

}  // namespace

ElementType element_type_of(std::string_view type_name) {
  const std::string base = without_vector_width(base_type(type_name));
  using K = ElementType::Kind;
  static const std::vector<std::pair<std::string_view, ElementType>> kScalars = {
      {"half", {K::Float, 2, "float16"}},     {"float", {K::Float, 4, "float32"}},
      {"double", {K::Float, 8, "float64"}},   {"char", {K::Signed, 1, "int8"}},
      {"uchar", {K::Unsigned, 1, "uint8"}},   {"short", {K::Signed, 2, "int16"}},
      {"ushort", {K::Unsigned, 2, "uint16"}}, {"int", {K::Signed, 4, "int32"}},
      {"uint", {K::Unsigned, 4, "uint32"}},   {"long", {K::Signed, 8, "int64"}},
      {"ulong", {K::Unsigned, 8, "uint64"}},  {"bool", {K::Unsigned, 1, "uint8"}},
      {"size_t", {K::Unsigned, 8, "uint64"}}, {"ptrdiff_t", {K::Signed, 8, "int64"}},
      {"intptr_t", {K::Signed, 8, "int64"}},  {"uintptr_t", {K::Unsigned, 8, "uint64"}},
      {"int8_t", {K::Signed, 1, "int8"}},     {"uint8_t", {K::Unsigned, 1, "uint8"}},
      {"int16_t", {K::Signed, 2, "int16"}},   {"uint16_t", {K::Unsigned, 2, "uint16"}},
      {"int32_t", {K::Signed, 4, "int32"}},   {"uint32_t", {K::Unsigned, 4, "uint32"}},
      {"int64_t", {K::Signed, 8, "int64"}},   {"uint64_t", {K::Unsigned, 8, "uint64"}},
  };
  for (const auto& [name, type] : kScalars) {
    if (base == name) return type;
  }
  ElementType bytes;
  if (!base.empty() && base != "void") bytes.name = base;
  return bytes;
}

std::map<trace::CaptureId, BufferUse> buffer_uses(
    const trace::Range& range, const TraceCatalog& catalog,
    const std::map<trace::CaptureId, std::vector<trace::KernelArgInfo>>& learned) {
  std::map<trace::CaptureId, BufferUse> uses;
  std::map<trace::CaptureId, ElementType> written_as;
  for (const auto& command : range.commands) {
    const auto* launch = std::get_if<trace::KernelLaunch>(&command.body);
    if (launch == nullptr) continue;
    const auto* arg_info = &catalog.kernel(launch->kernel).arg_info;
    if (arg_info->empty()) {
      const auto it = learned.find(launch->kernel);
      if (it != learned.end()) arg_info = &it->second;
    }
    for (const auto& arg : launch->args) {
      if (!arg.names_memory() || arg.index >= arg_info->size()) continue;
      const auto& info = (*arg_info)[arg.index];
      const ElementType type = element_type_of(info.type_name);
      const bool may_write = (info.type_qualifier & kTypeQualifierConst) == 0;
      std::vector<trace::CaptureId> named = {arg.object};
      if (catalog.has_buffer(arg.object) && catalog.buffer(arg.object).parent != 0)
        named.push_back(catalog.buffer(arg.object).parent);
      for (auto id : named) {
        auto& use = uses[id];
        use.element = type;
        if (!info.name.empty()) use.arg_names.insert(info.name);
        if (may_write) written_as[id] = type;
      }
    }
  }
  for (const auto& [id, type] : written_as) uses[id].element = type;
  // An image's pixels are compared as its format's components, whatever
  // the kernels' image arguments say (they name no element type).
  for (const auto& state : range.initial_state) {
    if (!catalog.has_buffer(state.buffer)) continue;
    const trace::Buffer& b = catalog.buffer(state.buffer);
    if (!b.image) continue;
    for (const char* c_name :
         {"half", "float", "char", "uchar", "short", "ushort", "int", "uint"}) {
      const ElementType type = element_type_of(c_name);
      if (type.name == b.image->element_type) uses[state.buffer].element = type;
    }
  }
  return uses;
}

}  // namespace msprof::replay
