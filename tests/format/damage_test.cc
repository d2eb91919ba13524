#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <map>

#include "format/file_sink.h"
#include "format/frame.h"
#include "format/trace_reader.h"
#include "format/trace_seal.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"
#include "tests/format/sample_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

namespace {

std::vector<char> slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::filesystem::path& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// What a pristine trace holds, by frame offset, to judge what a damaged copy
// gives back: every record it returns must be the one written there.
struct Pristine {
  std::map<std::uint64_t, Record> records;
  std::map<std::uint64_t, std::uint64_t> frame_end;
  msprof::test::SampleTrace sample;
};

Pristine read_pristine(const std::filesystem::path& path, const msprof::test::SampleTrace& sample) {
  TraceReader reader(path);
  Pristine p;
  for (const auto& e : reader.records()) p.records.emplace(e.offset, reader.read_record(e));
  for (const auto& e : reader.frames()) p.frame_end.emplace(e.offset, e.offset + e.frame_size);
  p.sample = sample;
  return p;
}

// Reads everything a damaged trace offers. Each read either gives the
// original content or a typed error; returns how many records came back whole.
std::size_t check_damaged(const std::filesystem::path& path, const Pristine& pristine) {
  std::size_t good = 0;
  try {
    TraceReader reader(path);
    for (const auto& e : reader.records()) {
      try {
        const Record r = reader.read_record(e);
        const auto it = pristine.records.find(e.offset);
        REQUIRE(it != pristine.records.end());
        CHECK(r == it->second);
        ++good;
      } catch (const TraceError&) {
      }
    }
    for (const auto& blob : pristine.sample.blobs) {
      const BlobRef ref = pristine.sample.ref(blob);
      try {
        const auto got = reader.read_blob(ref);
        CHECK(got == blob);
      } catch (const TraceError&) {
      }
    }
  } catch (const TraceError&) {
  }
  return good;
}

}  // namespace

TEST_CASE("a trace cut at any frame boundary or inside any frame keeps every whole frame") {
  TempDir dir;
  const auto sample = msprof::test::write_sample_trace(dir / "t.fb");
  const auto bytes = slurp(dir / "t.fb");
  const Pristine pristine = read_pristine(dir / "t.fb", sample);

  std::vector<std::uint64_t> cuts;
  for (const auto& [offset, end] : pristine.frame_end) {
    cuts.insert(cuts.end(), {offset, offset + 1, offset + kFrameHeaderSize - 1,
                             offset + kFrameHeaderSize, (offset + end) / 2, end - 1});
  }
  cuts.push_back(bytes.size() - 1);
  cuts.push_back(bytes.size() - kTrailerSize);
  for (const std::uint64_t cut : cuts) {
    CAPTURE(cut);
    spit(dir / "cut.fb", std::vector<char>(bytes.begin(), bytes.begin() + static_cast<long>(cut)));
    TraceReader reader(dir / "cut.fb");
    CHECK(reader.recovered());
    CHECK_FALSE(reader.warnings().empty());
    std::size_t whole = 0;
    for (const auto& [offset, end] : pristine.frame_end)
      whole += pristine.records.contains(offset) && end <= cut;
    CHECK(reader.records().size() == whole);
    for (const auto& e : reader.records())
      CHECK(reader.read_record(e) == pristine.records.at(e.offset));
    // A range that made it into the file has all of its data.
    for (const auto& range : reader.read_all<Range>()) {
      for (const auto& state : range.initial_state) CHECK(reader.has_blob(state.blob));
      for (const auto& state : range.final_state) CHECK(reader.has_blob(state.blob));
    }
  }
}

TEST_CASE("a trace shorter than its file header is not a trace") {
  TempDir dir;
  msprof::test::write_sample_trace(dir / "t.fb");
  const auto bytes = slurp(dir / "t.fb");
  for (std::size_t cut = 0; cut < kFileHeaderSize; ++cut) {
    spit(dir / "cut.fb", std::vector<char>(bytes.begin(), bytes.begin() + static_cast<long>(cut)));
    CHECK_THROWS_AS(TraceReader(dir / "cut.fb"), CorruptError);
  }
}

TEST_CASE("a single flipped bit anywhere gives back the original content or a typed error") {
  TempDir dir;
  const auto sample = msprof::test::write_sample_trace(dir / "t.fb", 2048);
  const auto bytes = slurp(dir / "t.fb");
  const Pristine pristine = read_pristine(dir / "t.fb", sample);
  std::size_t recovered_records = 0;
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    CAPTURE(at);
    auto damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << (at % 8)));
    spit(dir / "flip.fb", damaged);
    recovered_records += check_damaged(dir / "flip.fb", pristine);
  }
  // Damage costs at most the frame it hits: nearly every record survives.
  CHECK(recovered_records >= (bytes.size() - kFileHeaderSize) * (pristine.records.size() - 1));
}

TEST_CASE("wrong magic, another file, an empty file and a directory are refused") {
  TempDir dir;
  msprof::test::write_sample_trace(dir / "t.fb");
  auto bytes = slurp(dir / "t.fb");
  bytes[0] = 'X';
  spit(dir / "magic.fb", bytes);
  CHECK_THROWS_AS(TraceReader(dir / "magic.fb"), CorruptError);
  spit(dir / "text.fb", std::vector<char>(1000, 'a'));
  CHECK_THROWS_WITH_AS(TraceReader(dir / "text.fb"),
                       doctest::Contains("not an msprof-replay trace"), CorruptError);
  spit(dir / "empty.fb", {});
  CHECK_THROWS_AS(TraceReader(dir / "empty.fb"), CorruptError);
  CHECK_THROWS_AS(TraceReader(dir.path()), IoError);
  CHECK_THROWS_AS(TraceReader(dir / "missing.fb"), IoError);
}

TEST_CASE("a trace from a future container version is refused, naming both versions") {
  TempDir dir;
  msprof::test::write_sample_trace(dir / "t.fb");
  auto bytes = slurp(dir / "t.fb");
  const std::uint32_t future = kContainerVersion + 1;
  std::memcpy(bytes.data() + 8, &future, 4);
  std::memcpy(bytes.data() + 12, &future, 4);
  spit(dir / "future.fb", bytes);
  const std::string expected = "needs a reader of version " + std::to_string(future);
  CHECK_THROWS_WITH_AS(TraceReader(dir / "future.fb"), doctest::Contains(expected.c_str()),
                       UnsupportedVersionError);
}

TEST_CASE("a trace from a future schema version is refused, naming both versions") {
  TempDir dir;
  {
    TraceWriter writer(dir / "t.fb");
    TraceInfo info;
    info.schema_version = kSchemaVersion + 3;
    info.min_reader_version = kSchemaVersion + 2;
    writer.write(info);
    writer.close();
  }
  const std::string expected = "this reader is version " + std::to_string(kSchemaVersion);
  CHECK_THROWS_WITH_AS(TraceReader(dir / "t.fb"), doctest::Contains(expected.c_str()),
                       UnsupportedVersionError);
}

TEST_CASE("a newer schema that older readers may read is accepted") {
  TempDir dir;
  {
    TraceWriter writer(dir / "t.fb");
    TraceInfo info;
    info.schema_version = kSchemaVersion + 1;
    info.min_reader_version = kSchemaVersion;
    writer.write(info);
    writer.close();
  }
  CHECK(TraceReader(dir / "t.fb").info().schema_version == kSchemaVersion + 1);
}

TEST_CASE("frames of unknown type are skipped with one warning, with and without index") {
  TempDir dir;
  const std::vector<std::byte> payload(100, std::byte{7});
  FrameHeader unknown;
  unknown.type = 999;
  unknown.stored_size = unknown.raw_size = payload.size();
  unknown.payload_hash = hash64(payload);
  {
    FileSink sink(dir / "t.fb");
    sink.append_frame(unknown, payload);
    sink.append_frame(unknown, payload);
    const auto encoded = encode_record(Context{5, {}});
    FrameHeader h;
    h.type = static_cast<std::uint16_t>(encoded.type);
    h.stored_size = h.raw_size = encoded.bytes.size();
    h.payload_hash = hash64(encoded.bytes);
    sink.append_frame(h, encoded.bytes);
    sink.finish();
  }
  for (const bool with_index : {true, false}) {
    CAPTURE(with_index);
    auto bytes = slurp(dir / "t.fb");
    if (!with_index) bytes.resize(bytes.size() - kTrailerSize);
    spit(dir / "u.fb", bytes);
    TraceReader reader(dir / "u.fb");
    CHECK(reader.recovered() == !with_index);
    std::size_t unknown_warnings = 0;
    for (const auto& w : reader.warnings())
      unknown_warnings += w.find("unknown type 999") != std::string::npos;
    CHECK(unknown_warnings == 1);
    REQUIRE(reader.records().size() == 1);
    CHECK(std::get<Context>(reader.read_record(reader.records()[0])).id == 5);
  }
}

TEST_CASE("sealing a trace cut short keeps every whole frame and makes it complete") {
  TempDir dir;
  const auto sample = msprof::test::write_sample_trace(dir / "t.fb");
  const auto bytes = slurp(dir / "t.fb");
  const Pristine pristine = read_pristine(dir / "t.fb", sample);
  const std::uint64_t cut = bytes.size() - kTrailerSize - 100;  // inside the index frame
  spit(dir / "cut.fb", std::vector<char>(bytes.begin(), bytes.begin() + static_cast<long>(cut)));
  const auto result = seal_trace(dir / "cut.fb");
  CHECK_FALSE(result.was_complete);
  CHECK(result.dropped_bytes > 0);
  TraceReader reader(dir / "cut.fb");
  CHECK_FALSE(reader.recovered());
  CHECK(reader.records().size() == pristine.records.size());
  for (const auto& e : reader.records())
    CHECK(reader.read_record(e) == pristine.records.at(e.offset));
  for (const auto& blob : sample.blobs) CHECK(reader.read_blob(sample.ref(blob)) == blob);
  CHECK(seal_trace(dir / "cut.fb").was_complete);
}

TEST_CASE("frames claiming huge raw sizes are refused before anything is allocated") {
  TempDir dir;
  {
    std::ofstream out(dir / "bomb.fb", std::ios::binary);
    const auto head = encode_file_header();
    out.write(reinterpret_cast<const char*>(head.data()), head.size());
    for (int i = 0; i < 200; ++i) {
      FrameHeader h;
      h.type = static_cast<std::uint16_t>(FrameType::Range);
      h.flags = kFrameFlagZstd;
      h.stored_size = 0;
      h.raw_size = kMaxRecordRawSize;
      h.payload_hash = hash64({});
      const auto bytes = encode_frame_header(h);
      out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
  }
  TraceReader reader(dir / "bomb.fb");
  CHECK(reader.recovered());
  CHECK(reader.records().size() == 200);
  for (const auto& e : reader.records()) CHECK_THROWS_AS(reader.read_record(e), CorruptError);
}
