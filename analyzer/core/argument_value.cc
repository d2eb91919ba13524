#include "analyzer/core/argument_value.h"

#include <cstdio>
#include <cstring>
#include <string_view>

namespace msprof::analyze {
namespace {

enum class Kind { Signed, Unsigned, Float };

struct Scalar {
  std::string_view name;
  Kind kind;
  std::size_t size;
};

constexpr Scalar kScalars[] = {
    {"char", Kind::Signed, 1},
    {"uchar", Kind::Unsigned, 1},
    {"bool", Kind::Unsigned, 1},
    {"short", Kind::Signed, 2},
    {"ushort", Kind::Unsigned, 2},
    {"int", Kind::Signed, 4},
    {"uint", Kind::Unsigned, 4},
    {"long", Kind::Signed, 8},
    {"ulong", Kind::Unsigned, 8},
    {"float", Kind::Float, 4},
    {"double", Kind::Float, 8},
    {"size_t", Kind::Unsigned, 8},
    {"unsigned int", Kind::Unsigned, 4},
    {"unsigned char", Kind::Unsigned, 1},
    {"unsigned short", Kind::Unsigned, 2},
    {"unsigned long", Kind::Unsigned, 8},
};

std::string one(const Scalar& s, const std::uint8_t* p) {
  char text[64];
  if (s.kind == Kind::Float) {
    double v = 0;
    if (s.size == 4) {
      float f;
      std::memcpy(&f, p, 4);
      v = f;
    } else {
      std::memcpy(&v, p, 8);
    }
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
  }
  std::uint64_t u = 0;
  std::memcpy(&u, p, s.size);
  if (s.kind == Kind::Signed && s.size < 8 && (u >> (s.size * 8 - 1)) != 0)
    u |= ~0ull << (s.size * 8);
  if (s.kind == Kind::Signed) {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(u));
  } else {
    std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(u));
  }
  return text;
}

}  // namespace

std::optional<std::string> typed_scalar(const std::string& type_name,
                                        std::span<const std::uint8_t> bytes) {
  std::string_view name = type_name;
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  if (name.starts_with("const ")) name.remove_prefix(6);
  std::size_t lanes = 1;
  std::size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
  if (digits < name.size()) {
    lanes = 0;
    for (std::size_t i = digits; i < name.size(); ++i)
      lanes = lanes * 10 + static_cast<std::size_t>(name[i] - '0');
    name = name.substr(0, digits);
    if (lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 && lanes != 16) return std::nullopt;
  }
  for (const auto& s : kScalars) {
    if (s.name != name) continue;
    // A 3-lane vector occupies the space of 4.
    const std::size_t slots = lanes == 3 ? 4 : lanes;
    if (bytes.size() != slots * s.size) return std::nullopt;
    if (lanes == 1) return one(s, bytes.data());
    std::string out = "(";
    for (std::size_t i = 0; i < lanes; ++i)
      out += (i ? ", " : "") + one(s, bytes.data() + i * s.size);
    return out + ")";
  }
  return std::nullopt;
}

}  // namespace msprof::analyze
