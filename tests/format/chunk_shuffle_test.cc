#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "format/byte_shuffle.h"
#include "format/file_sink.h"
#include "format/trace_error.h"
#include "format/trace_reader.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

namespace {

std::vector<std::byte> random_floats(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<std::byte> out(count * 4);
  for (std::size_t i = 0; i < count; ++i) {
    const float f = uniform(rng);
    std::memcpy(out.data() + i * 4, &f, 4);
  }
  return out;
}

struct ChunkFlags {
  std::size_t chunks = 0, shuffled = 0;
  std::uint64_t stored = 0;
};

ChunkFlags chunk_flags(const TraceReader& reader, const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  ChunkFlags out;
  for (const auto& entry : reader.frames()) {
    if (entry.type != static_cast<std::uint16_t>(FrameType::BlobChunk)) continue;
    std::array<std::byte, kFrameHeaderSize> bytes{};
    in.seekg(static_cast<std::streamoff>(entry.offset));
    in.read(reinterpret_cast<char*>(bytes.data()), bytes.size());
    const auto header = decode_frame_header(bytes);
    REQUIRE(header);
    out.chunks += 1;
    out.shuffled += (header->flags & kFrameFlagShuffle4) != 0;
    out.stored += header->stored_size;
  }
  return out;
}

// Writes `data` as one blob; its chunks' flags, after checking it reads back.
ChunkFlags write_one_blob(const std::filesystem::path& path, const std::vector<std::byte>& data) {
  BlobRef ref;
  {
    TraceWriter writer(path);
    ref = writer.put_blob(data);
    writer.close();
  }
  TraceReader reader(path);
  CHECK(reader.read_blob(ref) == data);
  return chunk_flags(reader, path);
}

}  // namespace

TEST_CASE("shuffling puts byte k of every 4-byte element in plane k, and back") {
  std::vector<std::byte> in(16), planes(16), back(16);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::byte>(i);
  shuffle4(in, planes);
  const unsigned expected[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
  for (std::size_t i = 0; i < 16; ++i) CHECK(planes[i] == static_cast<std::byte>(expected[i]));
  unshuffle4(planes, back);
  CHECK(back == in);
}

TEST_CASE("float32 chunks are stored shuffled, smaller than zstd alone makes them") {
  TempDir dir;
  const auto data = random_floats(3 << 20, 3);  // 12 MiB: three chunks
  const auto flags = write_one_blob(dir / "t.fb", data);
  CHECK(flags.chunks == 3);
  CHECK(flags.shuffled == 3);
  // zstd on the floats as they are stores 0.89 of them; shuffled, 0.82.
  CHECK(static_cast<double>(flags.stored) < 0.85 * static_cast<double>(data.size()));
}

TEST_CASE("a chunk somewhat larger shuffled is still shuffled: it compresses much faster") {
  TempDir dir;
  // Every other float zero: 0.46 of it as is, 0.51 shuffled, about 2x faster.
  auto data = random_floats(1 << 20, 6);
  for (std::size_t i = 1; i < data.size() / 4; i += 2) std::memset(data.data() + i * 4, 0, 4);
  const auto flags = write_one_blob(dir / "t.fb", data);
  CHECK(flags.chunks == 1);
  CHECK(flags.shuffled == 1);
}

TEST_CASE("chunks that compress better as they are, or not at all, are not shuffled") {
  TempDir dir;
  std::string text;
  while (text.size() < (1u << 20)) text += "kernel void scale(global float* x) { x[i] *= 2; }\n";
  text.resize(1u << 20);
  std::vector<std::byte> words(text.size());
  std::memcpy(words.data(), text.data(), text.size());
  std::vector<std::byte> noise(1u << 20);
  std::mt19937_64 rng(9);
  for (auto& b : noise) b = static_cast<std::byte>(rng());
  const auto odd = random_floats(1000, 4);
  const std::vector<std::byte> odd_sized(odd.begin(), odd.end() - 1);
  BlobRef refs[3];
  {
    TraceWriter writer(dir / "t.fb");
    refs[0] = writer.put_blob(words);
    refs[1] = writer.put_blob(noise);
    refs[2] = writer.put_blob(odd_sized);
    writer.close();
  }
  TraceReader reader(dir / "t.fb");
  const auto flags = chunk_flags(reader, dir / "t.fb");
  CHECK(flags.chunks == 3);
  CHECK(flags.shuffled == 0);
  CHECK(reader.read_blob(refs[0]) == words);
  CHECK(reader.read_blob(refs[1]) == noise);
  CHECK(reader.read_blob(refs[2]) == odd_sized);
}

TEST_CASE("the shuffle flag where it cannot be is damage, not a crash") {
  TempDir dir;
  const auto floats = random_floats(1001, 5);
  const std::vector<std::byte> three(floats.begin(), floats.begin() + 4003);
  struct Case {
    std::vector<std::byte> raw;
    FrameType type;
    std::uint16_t flags;
  };
  const Case cases[] = {
      {three, FrameType::BlobChunk, kFrameFlagZstd | kFrameFlagContentKeyed | kFrameFlagShuffle4},
      {floats, FrameType::BlobChunk, kFrameFlagContentKeyed | kFrameFlagShuffle4},
  };
  for (const auto& c : cases) {
    const auto path = dir / "bad.fb";
    {
      FileSink sink(path);
      FrameHeader header;
      header.type = static_cast<std::uint16_t>(c.type);
      header.flags = c.flags;
      header.raw_size = header.stored_size = c.raw.size();
      header.key = hash128(c.raw);
      sink.append_frame(header, c.raw);
      sink.finish();
    }
    TraceReader reader(path);
    REQUIRE(reader.frames().size() == 1);
    CHECK_THROWS_WITH_AS(reader.read_payload(reader.frames()[0]), doctest::Contains("inconsistent"),
                         CorruptError);
  }
}

TEST_CASE("a version 1 trace, from before shuffled chunks, is still read") {
  TempDir dir;
  {
    TraceWriter writer(dir / "t.fb");
    writer.write(Context{7, {}});
    writer.close();
  }
  std::fstream file(dir / "t.fb", std::ios::in | std::ios::out | std::ios::binary);
  const std::uint32_t one = 1;
  file.seekp(8);
  file.write(reinterpret_cast<const char*>(&one), 4);
  file.write(reinterpret_cast<const char*>(&one), 4);
  file.close();
  REQUIRE(kContainerVersion == 2);
  TraceReader reader(dir / "t.fb");
  REQUIRE(reader.records().size() == 1);
  CHECK(std::get<Context>(reader.read_record(reader.records()[0])).id == 7);
}
