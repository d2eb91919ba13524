#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace msprof::analyze {

// Sizes as people read them: "512 B", "3.0 KiB", "1.25 GiB".
std::string human_bytes(std::uint64_t bytes);
// A fixed-point number with `digits` decimals, "-" for NaN.
std::string fixed(double value, int digits);
// UTC, ISO 8601 with seconds: "2023-11-14T22:13:20Z".
std::string iso_time_utc(std::uint64_t unix_ns);
std::string hex_bytes(std::span<const std::uint8_t> bytes);
std::string hex_u64(std::uint64_t value);
// Pads or keeps `text` to `width` columns (left or right aligned).
std::string pad_right(const std::string& text, std::size_t width);
std::string pad_left(const std::string& text, std::size_t width);
// Rows as a text table: columns two spaces apart, each as wide as its
// widest cell, right-aligned where `right_aligned(column)` says (numbers),
// no trailing spaces; a line per row.
std::string aligned_table(const std::vector<std::vector<std::string>>& rows,
                          const std::function<bool(std::size_t column)>& right_aligned);

}  // namespace msprof::analyze
