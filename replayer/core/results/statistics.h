#pragma once

#include <span>

namespace msprof::replay {

// Summary of one metric over the measured passes.
struct Statistics {
  double min = 0, median = 0, mean = 0, max = 0, stddev = 0;
};

// Population standard deviation: the passes are all there is, not a sample
// of something larger. An empty input gives all zeros.
Statistics summarize(std::span<const double> values);

}  // namespace msprof::replay
