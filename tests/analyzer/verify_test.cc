#include <doctest/doctest.h>

#include <fstream>

#include "analyzer/core/trace_repair.h"
#include "analyzer/core/trace_verifier.h"
#include "format/frame.h"
#include "format/hash128.h"
#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/example_trace.h"
#include "tests/support/small_disk.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;
namespace fs = std::filesystem;

namespace {

bool mentions(const analyze::VerifyReport& report, const std::string& text) {
  for (const auto& p : report.problems) {
    if (p.find(text) != std::string::npos) return true;
  }
  return false;
}

void flip_byte(const fs::path& path, std::uint64_t at) {
  std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
  f.seekg(static_cast<std::streamoff>(at));
  const char c = static_cast<char>(f.get());
  f.seekp(static_cast<std::streamoff>(at));
  f.put(static_cast<char>(c ^ 0x40));
}

}  // namespace

TEST_CASE("verify finds a freshly written trace sound, having read every frame") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const trace::TraceReader reader(dir / "example.fb");
  const auto report = analyze::verify_trace(reader, "example.fb");
  CHECK(report.sound());
  CHECK(report.ranges == 5);
  // Seven blobs given, six distinct: the quotient (|z / x|) equals the sum.
  CHECK(report.blobs == 6);
  CHECK(report.chunks == 6);
  CHECK(report.frames == reader.frames().size());
  const auto r = test::run_analyze({"verify", (dir / "example.fb").string()});
  CHECK(r.status == 0);
  CHECK(r.out.find("trace is sound") != std::string::npos);
}

TEST_CASE("verify reports a damaged chunk and exits 1") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  std::uint64_t chunk = 0;
  {
    const trace::TraceReader reader(dir / "example.fb");
    for (const auto& f : reader.frames()) {
      if (f.type == static_cast<std::uint16_t>(trace::FrameType::BlobChunk)) chunk = f.offset;
    }
  }
  flip_byte(dir / "example.fb", chunk + trace::kFrameHeaderSize + 3);
  const trace::TraceReader reader(dir / "example.fb");
  const auto report = analyze::verify_trace(reader, "example.fb");
  CHECK_FALSE(report.sound());
  CHECK(mentions(report, "blob-chunk frame at offset " + std::to_string(chunk)));
  const auto r = test::run_analyze({"verify", (dir / "example.fb").string(), "--format", "json"});
  CHECK(r.status == 1);
  CHECK(nlohmann::json::parse(r.out)["sound"] == false);
}

TEST_CASE("verify reports references to blobs and objects the trace lacks") {
  TempDir dir;
  {
    auto example = test::make_example_records();
    trace::TraceWriter writer(dir / "dangling.fb");
    for (const auto& blob : example.blobs) writer.put_blob(blob);
    for (auto& record : example.records) {
      if (auto* range = std::get_if<trace::Range>(&record); range && range->name == "range2") {
        range->final_state[1].blob = {trace::Hash128{1, 2}, 64};
        range->commands[0].queue = 99;
        range->commands[1].wait_events = {77};
      }
      writer.write(record);
    }
    writer.close();
  }
  const auto report = analyze::verify_trace(trace::TraceReader(dir / "dangling.fb"), "dangling.fb");
  CHECK(mentions(report, "range 12 'range2' final state of buffer 9 names blob"));
  CHECK(mentions(report, "names queue 99, not in the trace"));
  CHECK(mentions(report, "waits for event 77 of no earlier command"));
  CHECK(report.problems.size() == 3);
}

TEST_CASE("a crashed trace (no trailer) is reported, and --repair writes a complete copy") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const trace::TraceReader pristine(dir / "example.fb");
  // Cut inside the index frame: every record and blob is whole, the index and trailer are gone.
  std::uint64_t last_end = 0;
  for (const auto& f : pristine.frames()) last_end = std::max(last_end, f.offset + f.frame_size);
  fs::copy_file(dir / "example.fb", dir / "crashed.fb");
  fs::resize_file(dir / "crashed.fb", last_end + 10);

  const trace::TraceReader crashed(dir / "crashed.fb");
  REQUIRE(crashed.recovered());
  const auto report = analyze::verify_trace(crashed, "crashed.fb");
  CHECK_FALSE(report.sound());
  CHECK(mentions(report, "no trailer"));
  CHECK(analyze::verify_trace(pristine, "example.fb").sound());

  const auto r = test::run_analyze(
      {"verify", (dir / "crashed.fb").string(), "--repair", "-o", (dir / "repaired.fb").string()});
  CHECK(r.status == 0);
  CHECK(r.out.find("trace is NOT sound") != std::string::npos);
  CHECK(r.err.find("sound") != std::string::npos);
  const trace::TraceReader repaired(dir / "repaired.fb");
  CHECK_FALSE(repaired.recovered());
  CHECK(analyze::verify_trace(repaired, "repaired.fb").sound());
  CHECK(repaired.read_all<trace::Range>() == pristine.read_all<trace::Range>());
  CHECK(repaired.info() == pristine.info());
  const auto range1 = pristine.read_all<trace::Range>()[0];
  CHECK(repaired.read_blob(range1.final_state[2].blob) ==
        pristine.read_blob(range1.final_state[2].blob));
}

TEST_CASE("repair leaves out a blob with a damaged chunk and the ranges that name it") {
  TempDir dir;
  const auto example = test::write_example_trace(dir / "example.fb");
  const trace::Hash128 product = trace::hash128(example.blobs[3]);
  std::uint64_t chunk = 0;
  {
    const trace::TraceReader reader(dir / "example.fb");
    for (const auto& f : reader.frames()) {
      if (f.type == static_cast<std::uint16_t>(trace::FrameType::BlobChunk) && f.key == product)
        chunk = f.offset;
    }
  }
  REQUIRE(chunk != 0);
  flip_byte(dir / "example.fb", chunk + trace::kFrameHeaderSize + 1);
  const auto repair =
      analyze::repair_trace(trace::TraceReader(dir / "example.fb"), dir / "repaired.fb");
  // range1 ends with the product, range2 starts from it.
  CHECK(repair.dropped.size() == 3);
  const trace::TraceReader repaired(dir / "repaired.fb");
  CHECK(analyze::verify_trace(repaired, "repaired.fb").sound());
  const auto ranges = repaired.read_all<trace::Range>();
  REQUIRE(ranges.size() == 3);
  CHECK(ranges[0].name == "nested");
}

TEST_CASE("--repair refuses to overwrite its input and needs -o") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const auto same = test::run_analyze(
      {"verify", (dir / "example.fb").string(), "--repair", "-o", (dir / "example.fb").string()});
  CHECK(same.status == 2);
  CHECK(same.err.find("would overwrite") != std::string::npos);
  const auto no_out = test::run_analyze({"verify", (dir / "example.fb").string(), "--repair"});
  CHECK(no_out.status == 2);
}

TEST_CASE("--repair keeps the key a blob was written under, whichever way it was made") {
  // Traces written before blob keys were made from chunk keys name a blob
  // of several chunks by the XXH3-128 of its whole content.
  TempDir dir;
  const auto example = test::make_example_records();
  std::vector<std::byte> data(5000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 7 + i / 300);
  const trace::BlobRef old_key{trace::hash128(data), data.size()};
  REQUIRE(old_key.hash != trace::blob_key_of_content(data, 1024));
  trace::Range range;
  range.name = "old";
  range.initial_state = {{1, old_key}};
  {
    trace::TraceWriter::Options options;
    options.chunk_size = 1024;
    trace::TraceWriter writer(dir / "old.fb", options);
    writer.write(example.records.front());
    auto builder = writer.begin_blob();
    builder.append(data);
    CHECK(builder.finish_as(old_key.hash) == old_key);
    writer.write(range);
    writer.close();
  }
  const auto report = analyze::repair_trace(trace::TraceReader(dir / "old.fb"), dir / "fixed.fb");
  CHECK(report.dropped.empty());
  const trace::TraceReader fixed(dir / "fixed.fb");
  REQUIRE(fixed.read_all<trace::Range>().size() == 1);
  CHECK(fixed.read_all<trace::Range>()[0] == range);
  CHECK(fixed.read_blob(old_key) == data);
}

TEST_CASE("verify reports a flipped byte of the file header's container version as damage") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  std::ifstream in(dir / "example.fb", std::ios::binary);
  const std::string sound((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (std::uint64_t at = 8; at < 12; ++at) {
    for (const int mask : {0x01, 0x40, 0xff}) {
      CAPTURE(at);
      CAPTURE(mask);
      std::string bytes = sound;
      bytes[at] = static_cast<char>(bytes[at] ^ mask);
      std::ofstream(dir / "flipped.fb", std::ios::binary) << bytes;
      const auto r = test::run_analyze({"verify", (dir / "flipped.fb").string()});
      CHECK(r.status == 2);
      CHECK(r.out.empty());
      CHECK(r.err.rfind("msprof-analyze: error: the file header is damaged: ", 0) == 0);
      CHECK(r.err.find('\n') == r.err.size() - 1);
    }
  }
}

TEST_CASE("--repair onto a full disk fails in one line and leaves no file") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  test::SmallDisk disk(20);
  if (!disk.mounted()) return disk.skip();
  disk.fill(0);
  const auto r = test::run_analyze(
      {"verify", (dir / "example.fb").string(), "--repair", "-o", (disk.path() / "r.fb").string()});
  CAPTURE(r.err);
  CHECK(r.status != 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find("msprof-analyze: error: ") == 0);
  CHECK(disk.files().empty());
}
