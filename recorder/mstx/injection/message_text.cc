#include "recorder/mstx/injection/message_text.h"

#include <cstring>

namespace msprof::mstx {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0u) == 0x80u;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

std::string_view bounded_text(const char* text, std::size_t max_bytes) noexcept {
  if (text == nullptr) return {};
  std::size_t length = ::strnlen(text, max_bytes + 1);
  if (length <= max_bytes) return {text, length};
  length = max_bytes;
  // Back up to the lead byte of a sequence the cut would split.
  while (length > 0 && is_continuation_byte(text[length])) --length;
  return {text, length};
}

std::string utf8_from_wide(const wchar_t* text) {
  std::string out;
  if (text == nullptr) return out;
  for (; *text != L'\0'; ++text) {
    char32_t cp = static_cast<char32_t>(*text);
    if constexpr (sizeof(wchar_t) == 2) {
      // UTF-16 (not Linux, kept for completeness): join surrogate pairs.
      if (cp >= 0xD800 && cp <= 0xDBFF && text[1] >= 0xDC00 && text[1] <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<char32_t>(text[1]) - 0xDC00);
        ++text;
      }
    }
    append_utf8(out, cp);
  }
  return out;
}

}  // namespace msprof::mstx
