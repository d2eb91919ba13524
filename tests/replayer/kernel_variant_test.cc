#include <doctest/doctest.h>

#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "replayer/core/plan/kernel_variant.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/replay_error.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using namespace msprof::replay;
using msprof::test::TempDir;

namespace {

WorkbenchRequest::Sweep sweep(const std::string& target, WorkbenchRequest::SweepOf of,
                              std::vector<std::string> values) {
  return {target, of, std::move(values)};
}

// A trace with one range launching "matmul" (2D, 64x64 in 16x16) and
// "scale" (1D, 4096, driver's local size) from program 2.
struct Workbench {
  TempDir dir;
  std::unique_ptr<trace::TraceReader> reader;
  std::unique_ptr<TraceCatalog> catalog;
  const trace::Range* range = nullptr;
  Workbench() {
    {
      trace::TraceWriter writer(dir / "t.fb");
      trace::TraceInfo info;
      info.api = "opencl";
      info.schema_version = 1;
      info.min_reader_version = 1;
      writer.write(info);
      writer.write(trace::Context{1, {0}});
      trace::Program program;
      program.id = 2;
      program.context = 1;
      program.sources = {"kernels"};
      writer.write(program);
      writer.write(trace::Kernel{3, 2, "matmul", 4, {}});
      writer.write(trace::Kernel{4, 2, "scale", 2, {}});
      trace::Range r;
      r.id = 30;
      r.name = "mm";
      r.commands = {
          {0, 20, 0, {}, false, 0, trace::KernelLaunch{3, 2, {}, {64, 64}, {16, 16}, {}, {}}},
          {1, 20, 0, {}, false, 0, trace::KernelLaunch{4, 1, {}, {4096}, {}, {}, {}}}};
      writer.write(r);
      writer.close();
    }
    reader = std::make_unique<trace::TraceReader>(dir / "t.fb");
    catalog = std::make_unique<TraceCatalog>(*reader);
    range = &catalog->ranges().at(0);
  }
};

}  // namespace

TEST_CASE("workbench: sizes, program names and sweeps expand to one variant per combination") {
  CHECK(parse_sizes("--local-size k", "16,8", ',') == std::vector<std::uint64_t>{16, 8});
  CHECK(parse_sizes("--sweep k:local-size", "16x8x2", 'x') == std::vector<std::uint64_t>{16, 8, 2});
  CHECK_THROWS_WITH_AS(parse_sizes("--local-size k", "16,0", ','),
                       "--local-size k '16,0' is not X[,Y[,Z]] (one to three positive sizes)",
                       UsageError);
  CHECK_THROWS_AS(parse_sizes("--local-size k", "1,2,3,4", ','), UsageError);
  CHECK_THROWS_AS(parse_sizes("--local-size k", "", ','), UsageError);
  CHECK(program_id_of("program_7") == 7u);
  CHECK(program_id_of("12") == 12u);
  CHECK_FALSE(program_id_of("matmul"));
  CHECK_FALSE(program_id_of("program_"));

  WorkbenchRequest none;
  CHECK(expand_variants(none).empty());

  using Of = WorkbenchRequest::SweepOf;
  WorkbenchRequest r;
  r.kernels.push_back({"matmul", {"edits/tiled.cl", "text", std::nullopt}, std::nullopt, {}});
  r.sweeps.push_back(sweep("matmul", Of::LocalSize, {"8x8", "16x16"}));
  r.sweeps.push_back(sweep("program_2", Of::BuildOptions, {"-DT=1", "-DT=2", "-DT=3"}));
  const auto variants = expand_variants(r);
  REQUIRE(variants.size() == 6);
  CHECK(variants[0].label == "matmul:tiled.cl matmul:local-size=8x8 program_2:build-options=-DT=1");
  CHECK(variants[5].label ==
        "matmul:tiled.cl matmul:local-size=16x16 program_2:build-options=-DT=3");
  for (const auto& v : variants) {
    REQUIRE(v.kernels.size() == 1);
    CHECK(v.kernels[0].code.source == "text");  // the fixed edit is in every one
    REQUIRE(v.programs.size() == 1);
    CHECK(v.programs[0].program == 2);
  }
  CHECK(variants[3].kernels[0].local_size == std::vector<std::uint64_t>{16, 16});
  CHECK(variants[3].programs[0].code.build_options == "-DT=1");
}

TEST_CASE("workbench: a variant is checked against every launch of its kernels") {
  Workbench w;
  const auto check = [&](const KernelEdit& edit, bool allow = false) {
    Variant v;
    v.kernels = {edit};
    check_variant(v, *w.range, *w.catalog, allow);
  };
  CHECK_NOTHROW(check({"matmul", {}, std::nullopt, std::vector<std::uint64_t>{8, 32}}));
  CHECK_NOTHROW(check({"nosuch", {}, std::nullopt, std::vector<std::uint64_t>{3}}));  // not here
  CHECK_THROWS_WITH_AS(
      check({"matmul", {}, std::nullopt, std::vector<std::uint64_t>{48, 16}}),
      "local size 48x16 does not divide the global size 64x64 of kernel 'matmul' in range 'mm'; "
      "choose a local size that divides it",
      UsageError);
  CHECK_THROWS_WITH_AS(check({"scale", {}, std::nullopt, std::vector<std::uint64_t>{8, 8}}),
                       "local size 8x8 of kernel 'scale' has 2 dimension(s), its launches in "
                       "range 'mm' 1; give one size per dimension",
                       UsageError);
  const KernelEdit bigger{"scale", {}, std::vector<std::uint64_t>{8192}, std::nullopt};
  CHECK_THROWS_WITH_AS(check(bigger),
                       "--global-size scale=8192 changes the work-items from 4096, so the kernel "
                       "computes something else; add --allow-global-size-change to measure it "
                       "anyway (its outputs are verified either way)",
                       UsageError);
  CHECK_NOTHROW(check(bigger, true));

  Variant unknown;
  unknown.kernels = {{"nosuch", {}, std::nullopt, std::nullopt}};
  CHECK_THROWS_WITH_AS(check_variant_targets(unknown, {w.range}, *w.catalog),
                       "kernel 'nosuch' is not launched in the selected ranges; their kernels: "
                       "matmul, scale",
                       UsageError);
  Variant program;
  program.programs = {{9, {}}};
  CHECK_THROWS_WITH_AS(
      check_variant_targets(program, {w.range}, *w.catalog),
      "program 9 has no kernel launched in the selected ranges; their programs: "
      "2 (matmul, scale) (the ids msprof-analyze extract names programs/program_ID "
      "by)",
      UsageError);
  Variant both;
  both.programs = {{2, {}}};
  CHECK(changed_kernels(both, *w.range, *w.catalog) == std::vector<std::string>{"matmul", "scale"});
  CHECK(touches(both, *w.range, *w.catalog));
}
