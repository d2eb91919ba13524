#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace msprof::trace {

struct SealResult {
  bool was_complete = false;        // it already had a usable index
  std::uint64_t frames = 0;         // frames kept
  std::uint64_t dropped_bytes = 0;  // torn tail cut off
  std::vector<std::string> warnings;
};

// Makes a trace whose writer died (crash, kill) complete in place: keeps
// every frame that arrived whole, cuts a torn tail, and appends an index and
// a trailer. A trace that is already complete is left untouched.
SealResult seal_trace(const std::filesystem::path& path);

}  // namespace msprof::trace
