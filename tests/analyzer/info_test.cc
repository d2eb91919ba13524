#include <doctest/doctest.h>

#include <fstream>

#include "analyzer/core/trace_summary.h"
#include "format/frame.h"
#include "format/trace_reader.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/example_trace.h"
#include "tests/analyzer/golden_file.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;

namespace {

// The file size depends on how zstd packs the records; everything else is fixed.
std::string mask_file_size(std::string text) {
  const auto open = text.find('(');
  const auto close = text.find(')', open);
  if (open != std::string::npos && close != std::string::npos)
    text.replace(open, close - open + 1, "(SIZE)");
  return text;
}

}  // namespace

TEST_CASE("info lists the trace and one line per range, as the golden files say") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const trace::TraceReader reader(dir / "example.fb");
  const auto summary = analyze::summarize_trace(reader, "example.fb");
  CHECK(summary.ranges.size() == 5);
  CHECK(summary.total_kernels == 6);
  // range1: three initial and three final states of 64 bytes, plus the 64-byte host write.
  CHECK(summary.ranges[0].bytes_captured == 7 * 64);
  CHECK(summary.ranges[0].bytes_stored > 0);
  CHECK(summary.ranges[2].status == "ignored");
  CHECK(summary.ranges[2].reason == "opened inside range2");
  test::check_golden("info.txt", mask_file_size(analyze::summary_text(summary)));
  auto json = analyze::summary_json(summary);
  json["trace"]["file_bytes"] = 0;
  test::check_golden("info.json", json.dump(2) + "\n");
}

TEST_CASE("info gives the capture options as the msprof-record flags that make them") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  auto summary = analyze::summarize_trace(trace::TraceReader(dir / "example.fb"), "example.fb");
  const auto options_line = [&] {
    const std::string text = analyze::summary_text(summary);
    const auto at = text.find("\noptions      ");
    REQUIRE(at != std::string::npos);
    return text.substr(at + 14, text.find('\n', at + 1) - at - 14);
  };
  auto& o = summary.info.options;
  o.include = {"range1", "loop*"};
  o.exclude = {"warmup"};
  o.final_state = false;
  o.kill = true;
  o.compression_level = 3;
  o.memory_bound = 256ull << 20;
  o.compression_threads = 2;
  o.min_saving_percent = 0;
  CHECK(options_line() ==
        "--include 'range1|loop*' --exclude 'warmup' --final-state off --kill on "
        "--compression-level 3 --memory-bound 256M --compression-threads 2 --min-saving 0");
  o.memory_bound = 3ull << 30;
  CHECK(options_line().find("--memory-bound 3G ") != std::string::npos);
  o.memory_bound = (64ull << 20) + 512;
  CHECK(options_line().find("--memory-bound 67109376 ") != std::string::npos);
  // What an older trace did not record is left out, not shown as 0.
  o = {};
  CHECK(options_line() == "--final-state on");
}

TEST_CASE(
    "info reads no blob content: it gives the same answer with every chunk's payload damaged") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const auto before =
      analyze::summary_json(analyze::summarize_trace(trace::TraceReader(dir / "example.fb"), "t"));
  std::vector<std::uint64_t> chunk_payloads;
  {
    const trace::TraceReader reader(dir / "example.fb");
    for (const auto& f : reader.frames()) {
      if (f.type == static_cast<std::uint16_t>(trace::FrameType::BlobChunk)) {
        chunk_payloads.push_back(f.offset + trace::kFrameHeaderSize);
      }
    }
  }
  REQUIRE(chunk_payloads.size() >= 6);
  {
    std::fstream f(dir / "example.fb", std::ios::binary | std::ios::in | std::ios::out);
    for (const auto at : chunk_payloads) {
      f.seekp(static_cast<std::streamoff>(at));
      f.put('\x5a');
    }
  }
  const trace::TraceReader damaged(dir / "example.fb");
  CHECK_FALSE(damaged.recovered());
  CHECK_THROWS_AS(damaged.read_blob(damaged.read_all<trace::Range>()[0].initial_state[0].blob),
                  trace::CorruptError);
  CHECK(analyze::summary_json(analyze::summarize_trace(damaged, "t")) == before);
}

TEST_CASE("info --format json on the command line parses and names every range") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  const auto r = test::run_analyze({"info", (dir / "example.fb").string(), "--format", "json"});
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["format"] == "msprof-analyze-info");
  REQUIRE(json["ranges"].size() == 5);
  CHECK(json["ranges"][3]["status"] == "not replayable");
  CHECK(json["ranges"][3]["reason"] == "clEnqueueSVMMap");
  CHECK(json["ranges"][4]["status"] == "truncated");
  CHECK(json["info"]["command_line"][1] == "examples/opencl_ranges.py");
}

TEST_CASE("info on a trace without trailer warns on stderr and still lists the ranges") {
  TempDir dir;
  test::write_example_trace(dir / "example.fb");
  std::filesystem::resize_file(dir / "example.fb",
                               std::filesystem::file_size(dir / "example.fb") - 7);
  const auto r = test::run_analyze({"info", (dir / "example.fb").string()});
  REQUIRE(r.status == 0);
  CHECK(r.err.find("msprof-analyze: warning: ") == 0);
  CHECK(r.out.find("no index: recovered by a scan") != std::string::npos);
  CHECK(r.out.find("range2") != std::string::npos);
}
