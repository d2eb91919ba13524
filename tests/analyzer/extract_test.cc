#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "analyzer/core/analyze_error.h"
#include "analyzer/core/npy_writer.h"
#include "analyzer/core/trace_extractor.h"
#include "format/trace_reader.h"
#include "tests/analyzer/cli_run.h"
#include "tests/analyzer/example_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit_floats(const fs::path& path, const std::vector<float>& values) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()),
            static_cast<std::streamsize>(values.size() * 4));
}

// numpy itself must read the file back with the dtype and contents we meant.
int numpy_check(const fs::path& npy, const std::string& dtype, const fs::path& raw) {
  const std::string cmd = std::string(MSPROF_PYTHON) + " " + MSPROF_NPY_CHECK + " '" +
                          npy.string() + "' " + dtype + " '" + raw.string() + "'";
  return std::system(cmd.c_str());
}

}  // namespace

TEST_CASE(
    "extract writes sources, binaries, .npy states numpy loads, and a manifest that ties them "
    "together") {
  TempDir dir;
  const auto example = test::write_example_trace(dir / "example.fb");
  const trace::TraceReader reader(dir / "example.fb");
  const analyze::ObjectTable table(reader);
  analyze::ExtractOptions options;
  options.dtype = "float32";
  options.display_path = "example.fb";
  const auto manifest = analyze::extract_trace(reader, table, dir / "out", options);

  CHECK(nlohmann::ordered_json::parse(slurp(dir / "out" / "manifest.json")) == manifest);
  REQUIRE(manifest["programs"].size() == 1);
  const auto& program = manifest["programs"][0];
  CHECK(
      slurp(dir / "out" / program["sources"][0].get<std::string>()).find("__kernel void axpbyz") ==
      0);
  CHECK(slurp(dir / "out" / program["built_binaries"][0]["file"].get<std::string>()) ==
        "POCL-BINARY-axpbyz-multiply-divide-fabs");
  CHECK(program["kernels"].size() == 4);

  REQUIRE(manifest["ranges"].size() == 5);
  const auto& range1 = manifest["ranges"][0];
  CHECK(range1["name"] == "range1");
  REQUIRE(range1["kernels"].size() == 2);
  const auto& axpbyz = range1["kernels"][0];
  CHECK(axpbyz["name"] == "axpbyz");
  CHECK(axpbyz["buffer_args"][2]["name"] == "z");
  const std::string z_final = axpbyz["buffer_args"][2]["final"];
  CHECK(z_final == "ranges/11_range1/final/buffer_9.npy");
  const auto& buffer9 = range1["buffers"][2];
  CHECK(buffer9["written"] == "written");
  CHECK(buffer9["final"]["elements"] == 16);

  spit_floats(dir / "product.raw", example.product);
  CHECK(numpy_check(dir / "out" / z_final, "float32", dir / "product.raw") == 0);
  spit_floats(dir / "b.raw", example.b);
  CHECK(numpy_check(dir / "out" / "ranges/15_tail/initial/buffer_8.npy", "float32",
                    dir / "b.raw") == 0);
  // A wrong expectation must fail, or the check proves nothing.
  CHECK(numpy_check(dir / "out" / z_final, "float32", dir / "b.raw") != 0);
}

TEST_CASE("extract of one range on the command line, raw bytes as uint8 by default") {
  TempDir dir;
  const auto example = test::write_example_trace(dir / "example.fb");
  const auto r = test::run_analyze(
      {"extract", (dir / "example.fb").string(), "range2", "-o", (dir / "x").string()});
  REQUIRE(r.status == 0);
  const auto manifest = nlohmann::json::parse(slurp(dir / "x" / "manifest.json"));
  REQUIRE(manifest["ranges"].size() == 1);
  CHECK(manifest["dtype"] == "uint8");
  const fs::path npy = dir / "x" / "ranges/12_range2/final/buffer_9.npy";
  spit_floats(dir / "q.raw", example.quotient);
  CHECK(numpy_check(npy, "uint8", dir / "q.raw") == 0);
  CHECK_FALSE(fs::exists(dir / "x" / "ranges/11_range1"));
}

TEST_CASE("npy headers are padded to 64 bytes and drop a partial last element") {
  TempDir dir;
  const std::vector<std::byte> bytes(10, std::byte{1});
  const auto dropped = analyze::write_npy(dir / "a.npy", analyze::npy_dtype("float64"),
                                          bytes.size(), [&](const auto& sink) { sink(bytes); });
  CHECK(dropped == 2);
  const std::string file = slurp(dir / "a.npy");
  CHECK((file.size() - 8) % 64 == 0);
  CHECK(file.substr(1, 5) == "NUMPY");
  CHECK(file.find("'descr': '<f8'") != std::string::npos);
  CHECK(file.find("'shape': (1,)") != std::string::npos);
  CHECK(file[file.size() - 9] == '\n');
  CHECK_THROWS_AS(analyze::npy_dtype("complex64"), analyze::AnalyzeError);
}
