// What real frameworks do, captured: programs a framework loads from
// binaries it compiled itself keep their source in the trace (tinygrad,
// examples/tinygrad_mlp.py, builds every kernel from OpenCL C, reads its
// binary and runs the program it makes from that binary), and a library on
// another OpenCL loader than the program's is seen too (our own library, and
// CLBlast through pyclblast).
#include <doctest/doctest.h>

#include "tests/e2e/recorded_examples.h"
#include "tests/e2e/tool_commands.h"
#include "tests/support/temp_dir.h"

using msprof::test::find_range;
using msprof::test::JsonReplay;
using msprof::test::recorded;
using msprof::test::replay_json;
using msprof::test::TempDir;
using nlohmann::json;

TEST_CASE("tinygrad: programs loaded from binaries carry their source, and replay rebuilt") {
  TempDir dir;
  const auto& trace = recorded("tinygrad_mlp.py").trace;
  const auto extracted =
      msprof::test::analyze({"extract", trace.string(), "-o", (dir / "x").string()}, dir.path());
  REQUIRE(extracted.exit_code == 0);
  const json manifest = json::parse(msprof::test::read_text(dir / "x" / "manifest.json"));
  REQUIRE_FALSE(manifest["programs"].empty());
  for (const auto& p : manifest["programs"]) {
    CHECK(p["kind"] == "binary");
    CHECK(p["given_binaries"].size() == 1);
    CHECK(p["sources"].size() == 1);  // the source the process built the binary from
  }
  for (const bool rebuild : {false, true}) {
    CAPTURE(rebuild);
    const JsonReplay r = replay_json(
        trace, rebuild ? std::vector<std::string>{"--rebuild"} : std::vector<std::string>{},
        dir.path());
    INFO(r.run.err);
    CHECK(r.run.exit_code == 0);
    const json* range = find_range(r.summary, "train_step");
    REQUIRE(range != nullptr);
    CHECK((*range)["kernels"].size() == 6);
    CHECK((*range)["program_source"] == (rebuild ? "source" : "binary"));
    CHECK((*range)["verification"]["status"] == "bit-exact");
    CHECK(r.summary["options"]["rebuild"] == rebuild);
  }
}

// examples/library_on_queue.py: pyopencl's loader and the system's in one
// process, the library's kernel enqueued through the second.
TEST_CASE("a library on the system's OpenCL loader, handed pyopencl's queue, is recorded") {
  TempDir dir;
  const std::string library = std::string(MSPROF_EXAMPLES_BIN_DIR) + "/libexample_queue_library.so";
  const auto rec = msprof::test::record(
      {"-o", (dir / "library.fb").string()},
      {msprof::test::python(), msprof::test::example("library_on_queue.py"), library}, dir.path());
  INFO(rec.err);
  REQUIRE(rec.exit_code == 0);
  CHECK(rec.err.find("library: complete, 2 kernel(s) [lib_scale, axpbyz]") != std::string::npos);
  CHECK(rec.err.find("without passing msprof-record") == std::string::npos);
  const JsonReplay r = replay_json(dir / "library.fb", {}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  const json* range = find_range(r.summary, "library");
  REQUIRE(range != nullptr);
  CHECK(msprof::test::kernel_names(*range) == std::vector<std::string>{"lib_scale", "axpbyz"});
  CHECK((*range)["verification"]["status"] == "bit-exact");
}

// examples/pyclblast_gemm.py: CLBlast's Python binding, linked against the
// system's loader, runs its GEMM on pyopencl's queue and buffers.
TEST_CASE("pyclblast on pyopencl's queue is recorded and replays bit-exact") {
  TempDir dir;
  const auto rec = msprof::test::record(
      {"-o", (dir / "pyclblast.fb").string()},
      {msprof::test::python(), msprof::test::example("pyclblast_gemm.py")}, dir.path());
  INFO(rec.err);
  REQUIRE(rec.exit_code == 0);
  // scripts/setup.sh installs pyclblast: the program must have run the GEMM.
  REQUIRE(rec.out.find("max error") != std::string::npos);
  CHECK(rec.err.find("gemm: complete, 1 kernel(s) [XgemmDirect") != std::string::npos);
  CHECK(rec.err.find("without passing msprof-record") == std::string::npos);
  const JsonReplay r = replay_json(dir / "pyclblast.fb", {}, dir.path());
  INFO(r.run.err);
  CHECK(r.run.exit_code == 0);
  const json* range = find_range(r.summary, "gemm");
  REQUIRE(range != nullptr);
  CHECK((*range)["kernels"].size() == 1);
  CHECK((*range)["verification"]["status"] == "bit-exact");
}

// A loader that loads no layers (tests/e2e/bypass_loader.c), loaded before a
// range that then holds no command: the program is warned of both, by name.
TEST_CASE("a loader that bypasses the recorder, and a range left empty by it, are warned of") {
  TempDir dir;
  const std::string loader = MSPROF_BYPASS_LOADER;
  const auto rec = msprof::test::record(
      {"-o", (dir / "bypass.fb").string()},
      {msprof::test::python(), std::string(MSPROF_E2E_SOURCE_DIR) + "/bypass_loader.py", loader},
      dir.path());
  INFO(rec.err);
  REQUIRE(rec.exit_code == 0);
  CHECK(rec.out == "done\n");  // the program itself is unchanged
  CHECK(rec.err.find("OpenCL calls through " + loader +
                     " reach the driver without passing msprof-record") != std::string::npos);
  CHECK(rec.err.find("range 'unseen' holds no command, and the program's device work may have "
                     "gone unseen: calls through " +
                     loader + " bypass the recorder") != std::string::npos);
}
