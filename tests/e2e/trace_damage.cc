#include "tests/e2e/trace_damage.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <vector>

#include "format/trace_reader.h"

namespace msprof::test {
namespace fs = std::filesystem;
using trace::FrameType;
using trace::TraceReader;

std::uint64_t range_frame_offset(const fs::path& path, const std::string& range) {
  const TraceReader reader(path);
  for (const auto& entry : reader.records()) {
    if (entry.type != static_cast<std::uint16_t>(FrameType::Range)) continue;
    const auto record = reader.read_record(entry);
    if (std::get<trace::Range>(record).name == range) return entry.offset;
  }
  throw std::runtime_error("no range " + range + " in " + path.string());
}

std::uint64_t frame_size_at(const fs::path& path, std::uint64_t offset) {
  const TraceReader reader(path);
  for (const auto& entry : reader.frames()) {
    if (entry.offset == offset) return entry.frame_size;
  }
  throw std::runtime_error("no frame at that offset");
}

std::uint64_t private_chunk_offset(const fs::path& path, const std::string& range) {
  const TraceReader reader(path);
  const auto ranges = reader.read_all<trace::Range>();
  std::set<trace::Hash128> elsewhere;
  for (const auto& r : ranges) {
    if (r.name == range) continue;
    for (const auto& s : r.initial_state) elsewhere.insert(s.blob.hash);
    for (const auto& s : r.final_state) elsewhere.insert(s.blob.hash);
  }
  for (const auto& r : ranges) {
    if (r.name != range) continue;
    std::set<trace::Hash128> own_initial;
    for (const auto& s : r.initial_state) own_initial.insert(s.blob.hash);
    for (const auto& s : r.final_state) {
      if (elsewhere.contains(s.blob.hash) || own_initial.contains(s.blob.hash)) continue;
      const auto chunk = reader.manifest(s.blob).chunks.at(0).hash;
      for (const auto& entry : reader.frames()) {
        if (entry.type == static_cast<std::uint16_t>(FrameType::BlobChunk) && entry.key == chunk)
          return entry.offset;
      }
    }
  }
  throw std::runtime_error("range " + range + " has no final state of its own");
}

namespace {

std::vector<char> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

void copy_truncated(const fs::path& from, const fs::path& to, std::uint64_t size) {
  auto bytes = read_bytes(from);
  if (size > bytes.size()) throw std::runtime_error("truncation past the end");
  bytes.resize(size);
  write_bytes(to, bytes);
}

void copy_flipped(const fs::path& from, const fs::path& to, std::uint64_t offset) {
  auto bytes = read_bytes(from);
  if (offset >= bytes.size()) throw std::runtime_error("flip past the end");
  bytes[offset] = static_cast<char>(~bytes[offset]);
  write_bytes(to, bytes);
}

}  // namespace msprof::test
