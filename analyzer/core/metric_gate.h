#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/core/metric_comparison.h"
#include "analyzer/core/replay_result_reader.h"

namespace msprof::analyze {

// `compare --fail-if GROUP.COLUMN+PCT%` (or -PCT%): a CI gate on a metric's
// change from A to B. Simulated counts repeat exactly, so any change is the
// code's, and a threshold of a few percent is a real one.
struct MetricGate {
  std::string spec;  // as given
  std::string group, column;
  bool rise = true;  // +PCT%: fails above +PCT%; -PCT%: fails below -PCT%
  double pct = 0;    // not negative
  std::string metric() const { return group + "." + column; }
  bool crossed(double change_pct) const;
};

// AnalyzeError (one line, with an example) when `spec` is not of that form.
MetricGate parse_metric_gate(const std::string& spec);

// AnalyzeError naming the metrics the results have when a gate names one
// that no kernel of A or B counted (a typo would otherwise pass every run).
void check_gate_metrics(const std::vector<MetricGate>& gates, const ReplayResult& a,
                        const ReplayResult& b);

// A gate that did not pass for one kernel (or, with an empty kernel, for
// all of them: it checked none).
struct GateFailure {
  std::string gate, range, kernel;
  std::size_t occurrence = 0;
  double a = 0, b = 0, change_pct = 0;
  std::string reason;  // "crossed", or why it could not be checked
  std::string line() const;
};

// The kernels that crossed a gate, those where its metric is not comparable
// (sim against perf), and each gate that found no kernel of both results
// with its metric: a gate that checked nothing does not pass.
std::vector<GateFailure> gate_failures(const std::vector<MetricGate>& gates,
                                       const std::vector<MetricRow>& rows, const ReplayResult& a,
                                       const ReplayResult& b);
nlohmann::ordered_json gate_failures_json(const std::vector<GateFailure>& failures);

}  // namespace msprof::analyze
