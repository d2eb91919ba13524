#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace msprof::replay {

enum class ReplayMode { Range, Kernel };
enum class CacheControl { All, None };
// First: after the first measured pass; Each: after every measured pass.
enum class VerifyMode { Off, First, Each };

struct ReplayOptions {
  ReplayMode mode = ReplayMode::Range;
  unsigned launch_count = 10;
  unsigned warm_up = 1;
  CacheControl cache_control = CacheControl::All;
  VerifyMode verify = VerifyMode::First;
  // Replaces the last-level cache size the device reports, for devices that
  // report nonsense and for tests that cannot afford the real size.
  std::optional<std::uint64_t> cache_bytes;
};

std::string_view replay_mode_name(ReplayMode mode);
std::string_view cache_control_name(CacheControl control);
std::string_view verify_mode_name(VerifyMode mode);

}  // namespace msprof::replay
