#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>

namespace msprof::record {

struct CaptureStats {
  std::uint64_t capture_ns = 0;
  std::uint64_t snapshot_bytes = 0;
  bool known = false;
};

// The launcher's closing report: every range with its kernels and bytes,
// the reasons of those that will not replay, the trace's size.
void print_summary(std::ostream& out, const std::filesystem::path& trace,
                   const CaptureStats& stats);

}  // namespace msprof::record
