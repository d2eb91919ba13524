#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "format/byte_shuffle.h"
#include "format/file_sink.h"
#include "format/frame.h"
#include "format/plane_codec.h"
#include "format/trace_error.h"
#include "format/trace_reader.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"
#include "format/zstd_codec.h"
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
  std::size_t chunks = 0, shuffled = 0, by_plane = 0, zstd = 0;
  std::uint64_t stored = 0;
  // Of the first chunk coded by plane: each plane's stored size, and its raw one.
  std::array<std::uint32_t, 4> plane_sizes{};
  std::uint64_t plane_size = 0;
  // Whether each chunk, by its key, was stored compressed: workers finish
  // chunks in any order.
  std::map<Hash128, bool> zstd_by_key;
};

std::uint32_t le32(const std::byte* at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::to_integer<std::uint32_t>(at[i]) << (8 * i);
  return v;
}

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
    out.zstd += (header->flags & kFrameFlagZstd) != 0;
    out.zstd_by_key[header->key] = (header->flags & kFrameFlagZstd) != 0;
    out.stored += header->stored_size;
    if ((header->flags & kFrameFlagPlanes) != 0 && out.by_plane++ == 0) {
      std::array<std::byte, kPlaneTableSize> table{};
      in.read(reinterpret_cast<char*>(table.data()), table.size());
      for (std::size_t i = 0; i < 4; ++i) out.plane_sizes[i] = le32(table.data() + 4 * i);
      out.plane_size = header->raw_size / 4;
    }
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

TEST_CASE("shuffling agrees with byte-by-byte planes at every length, vector loop and tail") {
  // 0 to 40 elements cover no vector step, exact steps and every remainder;
  // 4099 elements many steps and an odd tail.
  std::vector<std::size_t> counts;
  for (std::size_t n = 0; n <= 40; ++n) counts.push_back(n);
  counts.push_back(4099);
  for (const std::size_t n : counts) {
    CAPTURE(n);
    std::vector<std::byte> in(4 * n), planes(4 * n), expected(4 * n), back(4 * n);
    for (std::size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<std::byte>((i * 167 + 13) % 251);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < 4; ++k) expected[k * n + i] = in[4 * i + k];
    }
    shuffle4(in, planes);
    CHECK(planes == expected);
    unshuffle4(planes, back);
    CHECK(back == in);
  }
}

TEST_CASE("float32 chunks are stored shuffled, smaller than zstd alone makes them") {
  TempDir dir;
  const auto data = random_floats(3 << 20, 3);  // 12 MiB: three chunks
  const auto flags = write_one_blob(dir / "t.fb", data);
  CHECK(flags.chunks == 3);
  CHECK(flags.shuffled == 3);
  CHECK(flags.by_plane == 3);
  // zstd on the floats as they are stores 0.89 of them; shuffled, 0.82.
  CHECK(static_cast<double>(flags.stored) < 0.85 * static_cast<double>(data.size()));
  // Mantissa noise is stored as it is, without zstd's try; the byte holding
  // sign and exponent compresses.
  CHECK(flags.plane_sizes[0] == flags.plane_size);
  CHECK(flags.plane_sizes[1] == flags.plane_size);
  // Coded by frequency (ZstdStyle::Literals): 0.22 of the plane, 0.27 at level 1.
  CHECK(flags.plane_sizes[3] < flags.plane_size / 4);
}

TEST_CASE("planes of smooth float data keep the level's search for repeats") {
  TempDir dir;
  std::vector<std::byte> data(4u << 20);
  for (std::size_t i = 0; i < data.size() / 4; ++i) {
    const float f = std::sin(0.001f * static_cast<float>(i));
    std::memcpy(data.data() + i * 4, &f, 4);
  }
  const auto flags = write_one_blob(dir / "t.fb", data);
  REQUIRE(flags.by_plane == 1);
  // Byte 2 repeats period after period: 0.03 of itself at level 1, 0.14 or
  // more coded by frequency.
  CHECK(flags.plane_sizes[2] < flags.plane_size / 16);
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
  // Text compressed, noise stored without compressing, odd-sized floats
  // compressed as they are.
  CHECK(flags.zstd == 2);
  CHECK(reader.read_blob(refs[0]) == words);
  CHECK(reader.read_blob(refs[1]) == noise);
  CHECK(reader.read_blob(refs[2]) == odd_sized);
}

TEST_CASE("a minimum saving stores raw the chunks that would save less, and codes the rest") {
  TempDir dir;
  // Judged on their samples, random floats save 18-20% (shuffled) and
  // 8-10% (as they are, when odd sized); every other float zero 53% (as
  // it is), text over 70%.
  const auto floats = random_floats(1 << 20, 7);
  const auto odd = random_floats(1000, 8);
  const std::vector<std::byte> odd_sized(odd.begin(), odd.end() - 1);
  auto half_zero = random_floats(1 << 20, 9);
  for (std::size_t i = 1; i < half_zero.size() / 4; i += 2)
    std::memset(half_zero.data() + i * 4, 0, 4);
  std::string text;
  while (text.size() < (1u << 20)) text += "kernel void scale(global float* x) { x[i] *= 2; }\n";
  std::vector<std::byte> words(1u << 20);
  std::memcpy(words.data(), text.data(), words.size());
  const std::vector<std::byte>* blobs[] = {&floats, &odd_sized, &half_zero, &words};

  // Which of the four blobs (one chunk each) were stored compressed.
  const auto coded = [&](unsigned min_saving, unsigned workers) {
    const auto path = dir / ("t" + std::to_string(min_saving) + "_" + std::to_string(workers));
    std::vector<BlobRef> refs;
    {
      TraceWriter::Options options;
      options.min_saving_percent = min_saving;
      options.workers = workers;
      TraceWriter writer(path, options);
      for (const auto* b : blobs) refs.push_back(writer.put_blob(*b));
      writer.close();
    }
    TraceReader reader(path);
    auto zstd_by_key = chunk_flags(reader, path).zstd_by_key;
    std::string out;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      CHECK(reader.read_blob(refs[i]) == *blobs[i]);
      const auto chunks = reader.manifest(refs[i]).chunks;
      REQUIRE(chunks.size() == 1);
      REQUIRE(zstd_by_key.count(chunks[0].hash) == 1);
      out += zstd_by_key[chunks[0].hash] ? 'z' : '-';
    }
    return out;
  };
  CHECK(coded(0, 2) == "zzzz");
  CHECK(coded(5, 0) == "zzzz");
  CHECK(coded(14, 2) == "z-zz");
  CHECK(coded(25, 2) == "--zz");  // the recorder's default
  CHECK(coded(25, 0) == "--zz");
  // Every other float zero saves 48-50% shuffled and 53% as it is: planes
  // win the choice (up to 20% larger is faster), but short of 51% the
  // chunk is coded as it is, not stored raw.
  CHECK(coded(51, 2) == "--zz");
  CHECK(coded(70, 2) == "---z");
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
      {floats, FrameType::BlobChunk, kFrameFlagZstd | kFrameFlagContentKeyed | kFrameFlagPlanes},
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

TEST_CASE("version 1 and 2 traces, from before shuffled chunks and planes, are still read") {
  REQUIRE(kContainerVersion == 3);
  for (const std::uint32_t version : {1u, 2u}) {
    TempDir dir;
    {
      TraceWriter writer(dir / "t.fb");
      writer.write(Context{7, {}});
      writer.close();
    }
    std::fstream file(dir / "t.fb", std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(8);
    file.write(reinterpret_cast<const char*>(&version), 4);
    file.write(reinterpret_cast<const char*>(&version), 4);
    // An older writer put its version in the trailer too.
    const auto size = std::filesystem::file_size(dir / "t.fb");
    std::array<std::byte, kTrailerSize> tail{};
    file.seekg(static_cast<std::streamoff>(size - kTrailerSize));
    file.read(reinterpret_cast<char*>(tail.data()), kTrailerSize);
    auto trailer = decode_trailer(tail);
    REQUIRE(trailer);
    trailer->container_version = version;
    tail = encode_trailer(*trailer);
    file.seekp(static_cast<std::streamoff>(size - kTrailerSize));
    file.write(reinterpret_cast<const char*>(tail.data()), kTrailerSize);
    file.close();
    TraceReader reader(dir / "t.fb");
    REQUIRE(reader.records().size() == 1);
    CHECK(std::get<Context>(reader.read_record(reader.records()[0])).id == 7);
  }
}

namespace {

// One blob chunk frame of `raw` with `flags`, stored as `payload`.
std::vector<std::byte> read_single_chunk(const std::filesystem::path& path,
                                         const std::vector<std::byte>& raw, std::uint16_t flags,
                                         const std::vector<std::byte>& payload) {
  {
    FileSink sink(path);
    FrameHeader header;
    header.type = static_cast<std::uint16_t>(FrameType::BlobChunk);
    header.flags = flags;
    header.raw_size = raw.size();
    header.stored_size = payload.size();
    header.key = hash128(raw);
    sink.append_frame(header, payload);
    sink.finish();
  }
  TraceReader reader(path);
  REQUIRE(reader.frames().size() == 1);
  return reader.read_payload(reader.frames()[0]);
}

constexpr std::uint16_t kByPlane =
    kFrameFlagZstd | kFrameFlagContentKeyed | kFrameFlagShuffle4 | kFrameFlagPlanes;

std::vector<std::byte> plane_table(std::array<std::uint32_t, 4> sizes) {
  std::vector<std::byte> out(kPlaneTableSize);
  for (std::size_t i = 0; i < 4; ++i)
    for (int b = 0; b < 4; ++b) out[4 * i + b] = static_cast<std::byte>(sizes[i] >> (8 * b));
  return out;
}

std::vector<std::byte> shuffled_copy(const std::vector<std::byte>& data) {
  std::vector<std::byte> planes(data.size());
  shuffle4(data, planes);
  return planes;
}

}  // namespace

TEST_CASE("a version 2 chunk, shuffled then compressed whole, still reads") {
  TempDir dir;
  const auto floats = random_floats(4096, 8);
  ZstdCompressor compressor(1);
  const auto compressed = compressor.compress(shuffled_copy(floats));
  REQUIRE(compressed);
  const std::vector<std::byte> payload(compressed->begin(), compressed->end());
  CHECK(read_single_chunk(dir / "t.fb", floats,
                          kFrameFlagZstd | kFrameFlagContentKeyed | kFrameFlagShuffle4,
                          payload) == floats);
}

TEST_CASE("a chunk coded by plane reads back whatever mix of plane codings it has") {
  TempDir dir;
  const auto floats = random_floats(4096, 10);
  const auto planes = shuffled_copy(floats);
  ZstdCompressor compressor(1);
  int smaller = 0;
  for (unsigned mix = 0; mix < 81; ++mix) {
    PlaneCodings codings{};
    for (unsigned i = 0, m = mix; i < 4; ++i, m /= 3) codings[i] = static_cast<PlaneCoding>(m % 3);
    std::vector<std::byte> out(planes_bound(planes.size()));
    out.resize(encode_planes(compressor, planes, codings, out));
    // The writer stores a chunk that does not shrink as it is.
    if (out.size() >= floats.size()) continue;
    ++smaller;
    CAPTURE(mix);
    CHECK(read_single_chunk(dir / "t.fb", floats, kByPlane, out) == floats);
  }
  CHECK(smaller == 54);  // every mix where the exponent plane is compressed
}

TEST_CASE("planes coded in place make the payload that planes coded from a copy make") {
  // Planes of every kind in an order that makes each coding step work: a
  // plane that shrinks (0), noise after it that has to move down (1),
  // zeros (2) and a plane of a few values (3).
  std::mt19937 rng(13);
  std::vector<std::byte> planes(4 * 4096);
  for (std::size_t i = 0; i < 4096; ++i) {
    planes[i] = static_cast<std::byte>(i % 7);
    planes[4096 + i] = static_cast<std::byte>(rng());
    planes[3 * 4096 + i] = static_cast<std::byte>(rng() % 5);
  }
  ZstdCompressor compressor(1);
  std::vector<std::byte> scratch(ZstdCompressor::bound(4096));
  for (unsigned mix = 0; mix < 81; ++mix) {
    PlaneCodings codings{};
    for (unsigned i = 0, m = mix; i < 4; ++i, m /= 3) codings[i] = static_cast<PlaneCoding>(m % 3);
    CAPTURE(mix);
    std::vector<std::byte> copied(planes_bound(planes.size()));
    copied.resize(encode_planes(compressor, planes, codings, copied));
    std::vector<std::byte> in_place(planes_bound(planes.size()));
    std::copy(planes.begin(), planes.end(), in_place.begin() + kPlaneTableSize);
    in_place.resize(encode_planes_in_place(compressor, in_place, planes.size(), codings, scratch));
    CHECK(in_place == copied);
  }
}

TEST_CASE("the literals style codes an exponent plane smaller than level 1") {
  // The exponent plane of uniform float32: a few common byte values and no
  // repeats, where coding by frequency beats a search for matches.
  const auto planes = shuffled_copy(random_floats(1 << 18, 12));
  const auto exponents = std::span(planes).last(planes.size() / 4);
  ZstdCompressor compressor(1);
  std::vector<std::byte> out(ZstdCompressor::bound(exponents.size()));
  const std::size_t by_level = compressor.compress_to(exponents, out);
  const std::size_t by_literals = compressor.compress_to(exponents, out, ZstdStyle::Literals);
  REQUIRE(by_level > 0);
  CHECK(by_literals > 0);
  CHECK(by_literals * 20 < by_level * 19);
  // A level call after it is back at the level.
  CHECK(compressor.compress_to(exponents, out) == by_level);
  ZstdDecompressor decompressor;
  std::vector<std::byte> back(exponents.size());
  decompressor.decompress_into(std::span(out).first(by_level), back, 0);
  CHECK(std::equal(back.begin(), back.end(), exponents.begin()));
  compressor.compress_to(exponents, out, ZstdStyle::Literals);
  decompressor.decompress_into(std::span(out).first(by_literals), back, 0);
  CHECK(std::equal(back.begin(), back.end(), exponents.begin()));
}

TEST_CASE("a damaged plane table is damage, named as such") {
  TempDir dir;
  const auto floats = random_floats(1024, 11);  // planes of 1024 bytes
  const auto planes = shuffled_copy(floats);
  // Planes 0-2 raw, the exponent plane compressed: a payload smaller than
  // the chunk, as the writer makes them.
  ZstdCompressor compressor(1);
  std::vector<std::byte> sound(planes_bound(planes.size()));
  sound.resize(encode_planes(
      compressor, planes, {PlaneCoding::Raw, PlaneCoding::Raw, PlaneCoding::Raw, PlaneCoding::Zstd},
      sound));
  REQUIRE(sound.size() < floats.size());
  const auto z = static_cast<std::uint32_t>(sound.size() - kPlaneTableSize - 3 * 1024);
  const auto with_table = [&](std::array<std::uint32_t, 4> sizes, std::size_t extra) {
    auto payload = sound;
    const auto table = plane_table(sizes);
    std::copy(table.begin(), table.end(), payload.begin());
    payload.resize(payload.size() + extra);
    return payload;
  };
  REQUIRE(read_single_chunk(dir / "t.fb", floats, kByPlane, with_table({1024, 1024, 1024, z}, 0)) ==
          floats);
  struct Case {
    std::vector<std::byte> payload;
    const char* message;
  };
  const Case cases[] = {
      {std::vector<std::byte>(10), "plane table is cut short"},
      {with_table({1025, 1024, 1024, z}, 0), "claims 1025 bytes"},
      {with_table({1024, 1024, 1024, z}, 4), "do not fill"},
      {with_table({1024, 1024, 1000, z}, 0), "not the zstd frame"},
      {with_table({1024, 1024, 1024, z - 1}, 0), "damaged or incomplete zstd frame"},
      {with_table({1024, 1024, 4000000000u, z}, 0), "claims 4000000000 bytes"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.message);
    CHECK_THROWS_WITH_AS(read_single_chunk(dir / "t.fb", floats, kByPlane, c.payload),
                         doctest::Contains(c.message), CorruptError);
  }
}
