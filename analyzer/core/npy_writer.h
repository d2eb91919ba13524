#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace msprof::analyze {

// A numpy element type the buffers may be viewed as.
struct NpyDtype {
  std::string name;   // as given: "uint8", "float32", ...
  std::string descr;  // numpy's: "|u1", "<f4", ...
  std::size_t size = 1;
};
// AnalyzeError for names numpy would not read back the same way.
NpyDtype npy_dtype(const std::string& name);

// Writes an NPY v1.0 file of `bytes / dtype.size` elements, one-dimensional
// or of `shape` (C order) when given. The data arrives through `produce`,
// which calls its sink piece by piece, so a buffer of any size passes
// through with a piece of it in memory. Bytes past the last whole element
// are dropped; the return value says how many.
std::uint64_t write_npy(
    const std::filesystem::path& path, const NpyDtype& dtype, std::uint64_t bytes,
    const std::function<void(const std::function<void(std::span<const std::byte>)>&)>& produce,
    const std::vector<std::uint64_t>& shape = {});

}  // namespace msprof::analyze
