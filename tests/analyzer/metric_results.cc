#include "tests/analyzer/metric_results.h"

#include <fstream>

namespace msprof::test {

using nlohmann::ordered_json;

namespace {

ordered_json stats(double median) {
  return {{"min", median * 0.9},
          {"median", median},
          {"mean", median},
          {"max", median * 1.2},
          {"stddev", median * 0.05}};
}

ordered_json kernel(std::uint64_t seq, const std::string& name, double median_us,
                    const KernelCounts& c, const std::string& backend) {
  ordered_json k = {{"launch", seq},
                    {"seq", seq},
                    {"name", name},
                    {"folder", name + "_" + std::to_string(seq)},
                    {"global_size", {524288}},
                    {"local_size", {64}},
                    {"duration_us", stats(median_us)},
                    {"passes_us", {median_us, median_us}}};
  k["metrics"]["L2Cache"] = {
      {"backend", backend},   {"read_cache_hit", c.read_hit}, {"read_cache_miss", c.read_miss},
      {"write_cache_hit", 0}, {"write_cache_miss", 32768},    {"total_hit_rate(%)", c.hit_rate}};
  k["metrics"]["Instructions"] = {{"backend", backend}, {"instructions", c.instructions},
                                  {"loads", 106496},    {"stores", 65536},
                                  {"branches", 0},      {"branch_misses", 0}};
  if (backend == "perf") k["metrics"]["Instructions"]["cycles"] = c.instructions * 2;
  return k;
}

}  // namespace

ordered_json PipelineResult::json() const {
  ordered_json j = {{"format", "msprof-replay-result"},
                    {"version", 2},
                    {"trace", "pc.fb"},
                    {"created", mode == "range" ? "2026-12-07T22:50:09Z" : "2026-12-07T22:50:15Z"},
                    {"device", {{"name", "pthread-skylake-avx512-AMD EPYC"}}},
                    {"options", {{"replay_mode", mode}, {"launch_count", 10}, {"warm_up", 1}}},
                    {"notes", ordered_json::array()}};
  if (metrics) {
    ordered_json level = {{"size_bytes", 32768}, {"ways", 8}, {"line_bytes", 64}};
    ordered_json model = nullptr;
    if (backend == "sim") {
      model = {{"I1", level},
               {"D1", level},
               {"LL", {{"size_bytes", ll_bytes}, {"ways", 16}, {"line_bytes", 64}}}};
    }
    j["metrics"] = {{"groups", {"L2Cache", "Instructions"}},
                    {"backends", {{"L2Cache", backend}, {"Instructions", backend}}},
                    {"counting_passes", backend == "perf" ? 2 : 0},
                    {"cache_model", model},
                    {"simulated_device", backend == "sim" ? "pthread-haswell-AMD EPYC" : ""},
                    {"notes", ordered_json::array()}};
  }
  ordered_json produce_k = kernel(0, "produce", 122.384, produce, backend);
  ordered_json consume_k =
      kernel(1, "consume", mode == "range" ? 74.679 : 108.686, consume, backend);
  if (!metrics) {
    produce_k.erase("metrics");
    consume_k.erase("metrics");
  }
  j["ranges"] = {{{"name", "pipeline"},
                  {"status", "replayed"},
                  {"passes", 10},
                  {"wall_us", stats(mode == "range" ? 261.328 : 303.286)},
                  {"kernel_sum_us", stats(mode == "range" ? 198.552 : 225.941)},
                  {"verification", {{"status", "bit-exact"}}},
                  {"kernels", {produce_k, consume_k}}}};
  if (variant) {
    ordered_json v = {{"label", "consume:local-size=256"},
                      {"status", "measured"},
                      {"changed_kernels", {"consume"}},
                      {"changed_us", stats(77.5)},
                      {"recorded_changed_us", stats(74.679)},
                      {"wall_us", stats(255.1)},
                      {"ratio", 0.976},
                      {"changed_ratio", 1.038},
                      {"beyond_spread", false},
                      {"verification", {{"status", "bit-exact"}}}};
    if (variant_counted) {
      v["launch_metrics"] = {
          {{"seq", 1},
           {"name", "consume"},
           {"metrics", kernel(1, "consume", 77.5, variant_consume, backend)["metrics"]}}};
    }
    j["ranges"][0]["variants"] = {v};
    j["ranges"][0]["best_variant"] = "consume:local-size=256";
  }
  return j;
}

std::filesystem::path PipelineResult::write(const std::filesystem::path& dir,
                                            const std::string& name) const {
  const auto folder = dir / name;
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "summary.json") << json().dump(1);
  return folder;
}

PipelineResult kernel_mode_pipeline() {
  PipelineResult r;
  r.mode = "kernel";
  r.consume = {0, 32768, 0, 253952};
  return r;
}

}  // namespace msprof::test
