#pragma once

#include <cstdint>
#include <span>
#include <string>

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

}  // namespace msprof::analyze
