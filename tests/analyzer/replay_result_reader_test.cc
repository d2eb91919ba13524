#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "analyzer/core/analyze_error.h"
#include "analyzer/core/replay_result_reader.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using msprof::test::TempDir;

namespace {

const std::string kRange = std::string(MSPROF_DATA_DIR) + "/OPPROF_20261202181500_000001";

nlohmann::json range_result() {
  return nlohmann::json::parse(std::ifstream(kRange + "/summary.json"));
}

analyze::ReplayResult load(const TempDir& dir, const nlohmann::json& j) {
  std::ofstream(dir / "summary.json") << j.dump();
  return analyze::load_replay_result(dir / "summary.json");
}

}  // namespace

TEST_CASE("a version 1 summary.json loads: its missing fields read as empty, off as not verified") {
  TempDir dir;
  nlohmann::json j = range_result();
  j["version"] = 1;
  for (const char* key : {"notes"}) j.erase(key);
  for (const char* key : {"tolerance", "restore", "cache_clear", "thread_placement"})
    j["options"].erase(key);
  for (auto& range : j["ranges"]) {
    for (const char* key :
         {"restore_us", "restore", "memory", "wall_passes_us", "variants", "best_variant"})
      range.erase(key);
    range["verification"].erase("reason");
    for (auto& b : range["verification"]["buffers"]) {
      for (const char* key : {"arg_names", "allowed", "element_size", "outside_tolerance"})
        b.erase(key);
    }
  }
  j["ranges"][1]["verification"]["buffers"][0]["status"] = "differs";
  j["ranges"][2]["verification"]["status"] = "unavailable";
  const auto result = load(dir, j);
  REQUIRE(result.ranges.size() == 3);
  CHECK(result.notes.empty());
  CHECK(result.launch_count == 5);
  CHECK(result.ranges[0].verification == "bit-exact");
  CHECK(result.ranges[0].restore.median == 0);
  CHECK(result.ranges[0].variants.empty());
  CHECK(result.ranges[1].verification_buffers ==
        std::vector<std::string>{"buffer 9 (float32): differs, first index 0, 0 differ"});
  CHECK(result.ranges[2].verification == "not verified");
}

TEST_CASE("a field of another type than the schema's is a damaged replay result") {
  TempDir dir;
  const auto damaged = [&](const char* what, auto change) {
    INFO(std::string(what));
    nlohmann::json j = range_result();
    change(j);
    CHECK_THROWS_WITH_AS(load(dir, j), doctest::Contains("is a damaged replay result"),
                         analyze::AnalyzeError);
  };
  damaged("kernels an object", [](auto& j) { j["ranges"][0]["kernels"] = {{"a", 1}}; });
  damaged("a kernel a number", [](auto& j) { j["ranges"][0]["kernels"][0] = 7; });
  damaged("statistics a number", [](auto& j) { j["ranges"][0]["wall_us"] = 30.5; });
  damaged("verification a string", [](auto& j) { j["ranges"][0]["verification"] = "bit-exact"; });
  damaged("buffers an object",
          [](auto& j) { j["ranges"][0]["verification"]["buffers"] = nlohmann::json::object(); });
  damaged("an argument name of a differing buffer a number", [](auto& j) {
    auto& buffer = j["ranges"][0]["verification"]["buffers"][0];
    buffer["status"] = "differs";
    buffer["arg_names"] = {3};
  });
  damaged("variants a string", [](auto& j) { j["ranges"][0]["variants"] = "none"; });
  damaged("beyond_spread a string", [](auto& j) {
    j["ranges"][0]["variants"] = {{{"label", "v"}, {"beyond_spread", "yes"}}};
  });
  damaged("options an array", [](auto& j) { j["options"] = {1, 2}; });
  damaged("ranges missing", [](auto& j) { j.erase("ranges"); });
  damaged("ranges an object", [](auto& j) { j["ranges"] = {{"range1", 1}}; });
}
