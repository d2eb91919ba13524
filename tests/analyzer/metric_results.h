#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace msprof::test {

// What msprof-replay counted for one kernel (--metrics L2Cache,Instructions).
struct KernelCounts {
  double read_hit = 0, read_miss = 0, hit_rate = 0, instructions = 0;
};

// A small replay result of examples/producer_consumer.py's range
// "pipeline" (kernels produce and consume) with the metrics top level and
// per kernel, modeled on a real `msprof-replay pc.fb --metrics
// L2Cache,Instructions --metrics-backend sim` result, cut to what the
// analyzer reads. `backend` "perf" drops the cache model as perf does.
struct PipelineResult {
  std::string mode = "range";  // replay mode
  KernelCounts produce{0, 32769, 0, 262144};
  KernelCounts consume{32768, 0, 50, 253952};  // range mode: consume reads what produce wrote
  std::string backend = "sim";
  std::uint64_t ll_bytes = 33554432;  // the simulated last level
  bool metrics = true;                // false: a result from before --metrics
  // A workbench variant "consume:local-size=256" of the range, its changed
  // launch (consume, seq 1) counted as `variant_consume` (the real replay's
  // instructions: 253952 recorded, 210944 with the variant);
  // `variant_counted` false: a result from before variants were counted.
  bool variant = false;
  bool variant_counted = true;
  KernelCounts variant_consume{32768, 0, 50, 210944};
  nlohmann::ordered_json json() const;
  // Writes json() to dir/name/summary.json and returns that folder.
  std::filesystem::path write(const std::filesystem::path& dir, const std::string& name) const;
};

// Kernel mode of the same range: consume's reads miss.
PipelineResult kernel_mode_pipeline();

}  // namespace msprof::test
