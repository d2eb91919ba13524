#include "analyzer/core/npy_writer.h"

#include <fstream>

#include "analyzer/core/analyze_error.h"

namespace msprof::analyze {

NpyDtype npy_dtype(const std::string& name) {
  static const NpyDtype kTypes[] = {
      {"uint8", "|u1", 1},   {"int8", "|i1", 1},    {"uint16", "<u2", 2},  {"int16", "<i2", 2},
      {"uint32", "<u4", 4},  {"int32", "<i4", 4},   {"uint64", "<u8", 8},  {"int64", "<i8", 8},
      {"float16", "<f2", 2}, {"float32", "<f4", 4}, {"float64", "<f8", 8},
  };
  for (const auto& t : kTypes) {
    if (t.name == name) return t;
  }
  throw AnalyzeError("unknown --dtype '" + name +
                     "'; use uint8, int8, uint16, int16, uint32, int32, uint64, int64, float16, "
                     "float32 or float64");
}

std::uint64_t write_npy(
    const std::filesystem::path& path, const NpyDtype& dtype, std::uint64_t bytes,
    const std::function<void(const std::function<void(std::span<const std::byte>)>&)>& produce,
    const std::vector<std::uint64_t>& shape) {
  const std::uint64_t count = bytes / dtype.size;
  const std::uint64_t keep = count * dtype.size;
  std::string dims = std::to_string(count) + ",";
  if (!shape.empty()) {
    std::uint64_t elements = 1;
    dims.clear();
    for (const auto d : shape) {
      elements *= d;
      dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    }
    if (shape.size() == 1) dims += ",";
    if (elements != count) {
      throw AnalyzeError("a shape of " + std::to_string(elements) + " elements for " +
                         std::to_string(count) + " elements of data; the trace is damaged");
    }
  }
  std::string header =
      "{'descr': '" + dtype.descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw AnalyzeError("cannot write " + path.string() + "; check that the folder is writable");
  const char magic[] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
  out.write(magic, sizeof magic);
  const std::uint16_t length = static_cast<std::uint16_t>(header.size());
  const char length_bytes[] = {static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
  out.write(length_bytes, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  std::uint64_t written = 0;
  produce([&](std::span<const std::byte> piece) {
    const std::uint64_t n = std::min<std::uint64_t>(piece.size(), keep - written);
    out.write(reinterpret_cast<const char*>(piece.data()), static_cast<std::streamsize>(n));
    written += n;
  });
  out.close();
  if (!out) throw AnalyzeError("cannot write " + path.string() + "; check the free disk space");
  return bytes - keep;
}

}  // namespace msprof::analyze
