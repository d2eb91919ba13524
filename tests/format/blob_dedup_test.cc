#include <doctest/doctest.h>

#include <cstring>

#include "format/hash128.h"
#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "tests/format/sample_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

namespace {

std::size_t count_frames(const TraceReader& reader, FrameType type) {
  std::size_t n = 0;
  for (const auto& f : reader.frames()) n += f.type == static_cast<std::uint16_t>(type);
  return n;
}

}  // namespace

TEST_CASE("the same bytes under two buffers are stored once") {
  TempDir dir;
  const auto data = msprof::test::pattern_bytes(10000, 7);
  TraceWriter::Options options;
  options.chunk_size = 4096;
  BlobRef first, second;
  {
    TraceWriter writer(dir / "t.fb", options);
    first = writer.put_blob(data);
    second = writer.put_blob(data);
    Range range;
    range.name = "r";
    range.initial_state = {{1, first}, {2, second}};
    writer.write(range);
    const auto stats = writer.stats();
    CHECK(stats.blob_bytes == 20000);
    CHECK(stats.unique_chunk_bytes == 10000);
    CHECK(stats.chunks_deduplicated == 3);
    writer.close();
  }
  CHECK(first == second);
  TraceReader reader(dir / "t.fb");
  CHECK(count_frames(reader, FrameType::BlobChunk) == 3);
  CHECK(count_frames(reader, FrameType::BlobManifest) == 1);
  CHECK(reader.read_blob(first) == data);
}

TEST_CASE("chunks shared by different blobs are stored once") {
  TempDir dir;
  auto a = msprof::test::pattern_bytes(8192, 1);
  auto b = a;
  b[5000] ^= std::byte{1};  // second chunk differs, first is shared
  TraceWriter::Options options;
  options.chunk_size = 4096;
  BlobRef ra, rb;
  {
    TraceWriter writer(dir / "t.fb", options);
    ra = writer.put_blob(a);
    rb = writer.put_blob(b);
    writer.close();
  }
  TraceReader reader(dir / "t.fb");
  CHECK(count_frames(reader, FrameType::BlobChunk) == 3);
  CHECK(count_frames(reader, FrameType::BlobManifest) == 2);
  CHECK(reader.read_blob(ra) == a);
  CHECK(reader.read_blob(rb) == b);
}

TEST_CASE("a blob fed in odd-sized pieces equals the same blob given whole") {
  TempDir dir;
  const auto data = msprof::test::pattern_bytes(100003, 9);
  TraceWriter::Options options;
  options.chunk_size = 8192;
  BlobRef whole, pieces;
  {
    TraceWriter writer(dir / "t.fb", options);
    whole = writer.put_blob(data);
    auto builder = writer.begin_blob();
    std::span<const std::byte> rest = data;
    for (std::size_t step = 1; !rest.empty(); step = step * 3 + 1) {
      const std::size_t take = std::min(step, rest.size());
      builder.append(rest.first(take));
      rest = rest.subspan(take);
    }
    pieces = builder.finish();
    writer.close();
  }
  CHECK(whole == pieces);
  TraceReader reader(dir / "t.fb");
  CHECK(reader.manifest(whole).chunks.size() == 13);
  CHECK(reader.read_blob(whole) == data);
}

TEST_CASE("a 5 GiB all-zero blob is stored as one chunk and read back (64-bit sizes)") {
  TempDir dir;
  constexpr std::uint64_t kSize = 5ull << 30;
  const std::vector<std::byte> zeros(4u << 20, std::byte{0});
  BlobRef ref;
  {
    TraceWriter writer(dir / "t.fb");
    auto builder = writer.begin_blob();
    for (std::uint64_t done = 0; done < kSize; done += zeros.size()) builder.append(zeros);
    ref = builder.finish();
    writer.close();
  }
  CHECK(ref.size == kSize);
  CHECK(std::filesystem::file_size(dir / "t.fb") < (1u << 20));
  TraceReader reader(dir / "t.fb");
  CHECK(count_frames(reader, FrameType::BlobChunk) == 1);
  const auto manifest = reader.manifest(ref);
  CHECK(manifest.size == kSize);
  CHECK(manifest.chunks.size() == kSize / zeros.size());
  std::uint64_t seen = 0;
  bool all_zero = true;
  reader.stream_blob(ref, [&](std::span<const std::byte> piece) {
    all_zero = all_zero && piece.size() == zeros.size() &&
               std::memcmp(piece.data(), zeros.data(), piece.size()) == 0;
    seen += piece.size();
  });
  CHECK(all_zero);
  CHECK(seen == kSize);
}

TEST_CASE("a blob's key comes from its chunks' keys, however the blob is written") {
  TempDir dir;
  const auto data = msprof::test::pattern_bytes(10000, 9);  // chunks of 4096, 4096, 1808
  const auto single = msprof::test::pattern_bytes(3000, 10);
  TraceWriter::Options options;
  options.chunk_size = 4096;
  TraceWriter writer(dir / "t.fb", options);
  const BlobRef put = writer.put_blob(data);
  const BlobRef lent = writer.lend_blob(data, [] {});
  auto builder = writer.begin_blob();
  for (std::size_t at = 0; at < data.size(); at += 999) {
    builder.append(std::span(data).subspan(at, std::min<std::size_t>(999, data.size() - at)));
  }
  const BlobRef built = builder.finish();
  CHECK(lent == put);
  CHECK(built == put);
  const std::span<const std::byte> bytes(data);
  const std::vector<Hash128> chunk_keys{
      hash128(bytes.first(4096)), hash128(bytes.subspan(4096, 4096)), hash128(bytes.subspan(8192))};
  CHECK(put.hash == blob_key(chunk_keys));
  CHECK(put.hash == blob_key_of_content(data, 4096));
  CHECK(put.hash != hash128(data));
  // A blob of one chunk is known by that chunk's key; an empty one by the
  // key of no bytes.
  CHECK(writer.put_blob(single).hash == hash128(single));
  CHECK(writer.put_blob({}).hash == hash128({}));

  // Bytes that spell out the chunk keys are a blob of their own, not the
  // blob those keys make.
  std::vector<std::byte> spelled;
  for (const Hash128& key : chunk_keys) {
    for (const std::uint64_t half : {key.lo, key.hi}) {
      for (int i = 0; i < 8; ++i) spelled.push_back(static_cast<std::byte>(half >> (8 * i)));
    }
  }
  const BlobRef spelled_ref = writer.put_blob(spelled);
  CHECK(spelled_ref.hash != put.hash);
  writer.close();
  const TraceReader reader(dir / "t.fb");
  CHECK(reader.read_blob(put) == data);
  CHECK(reader.read_blob(spelled_ref) == spelled);
}

TEST_CASE("chunks the caller says hold zeros are stored as zeros without being read") {
  TempDir dir;
  TraceWriter::Options options;
  options.chunk_size = 4096;
  // Chunks 0 and 2 are "untouched": their bytes here are garbage the writer
  // must not read; chunk 1 and the short last one are read.
  auto data = msprof::test::pattern_bytes(3 * 4096 + 100, 5);
  std::vector<std::byte> expected = data;
  std::memset(expected.data(), 0, 4096);
  std::memset(expected.data() + 2 * 4096, 0, 4096);
  BlobRef told, read;
  {
    TraceWriter writer(dir / "t.fb", options);
    // The short last chunk is read whatever the caller says of it.
    told = writer.put_blob(data, {true, false, true, true});
    read = writer.put_blob(expected);
    const auto stats = writer.stats();
    CHECK(stats.unique_chunk_bytes == 4096 + 4096 + 100);  // one zero chunk, chunk 1, the tail
    writer.close();
  }
  // The same blob as the zeros read: the same key, and the zeros come back.
  CHECK(told == read);
  TraceReader reader(dir / "t.fb");
  CHECK(reader.read_blob(told) == expected);
}
