#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace msprof::mstx {

// `text` as it is (null = empty).
inline std::string_view c_text(const char* text) noexcept {
  return text != nullptr ? std::string_view(text) : std::string_view();
}

// `text` (null = empty) cut to at most `max_bytes`, never inside a UTF-8
// sequence.
std::string_view bounded_text(const char* text, std::size_t max_bytes) noexcept;

// A wide string (null = empty) as UTF-8; invalid code points become U+FFFD.
std::string utf8_from_wide(const wchar_t* text);

}  // namespace msprof::mstx
