#include "replayer/cli/counting_child.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "printable_text/printable_text.h"
#include "replayer/callgrind/callgrind_client.h"
#include "replayer/callgrind/sim_cache_model.h"
#include "replayer/callgrind/simulated_counts.h"
#include "replayer/core/session/replay_session.h"

namespace msprof::replay::cli {

namespace {

// Where the simulated run stands, on stderr: one line rewritten in place
// on a terminal, with the time left; a line per range otherwise (a log).
class CountingProgress {
 public:
  CountingProgress(const std::vector<SelectedRange>& selection, unsigned passes,
                   std::size_t variants)
      : selection_(selection), terminal_(::isatty(STDERR_FILENO) != 0) {
    for (const auto& s : selection) {
      if (!s.replayable) continue;
      for (const auto& c : s.range->commands)
        total_ += passes * std::holds_alternative<trace::KernelLaunch>(c.body);
    }
    // Each workbench variant that touches a range is counted again.
    total_ *= 1 + variants;
  }
  ~CountingProgress() {
    if (terminal_ && shown_) std::cerr << "\n";
  }

  void step(const CountingStep& step) {
    const auto now = std::chrono::steady_clock::now();
    if (done_ == 0) start_ = now;
    const std::string name = printable(selection_[step.range_index].range->name);
    if (terminal_) {
      std::string left = "";
      if (done_ != 0 && done_ < total_) {
        const double per = std::chrono::duration<double>(now - start_).count() / done_;
        const double seconds = per * static_cast<double>(total_ - done_);
        char text[64];
        std::snprintf(text, sizeof text,
                      seconds < 10 ? ", about %.1f s left" : ", about %.0f s left", seconds);
        left = text;
      }
      std::cerr << "\rmsprof-replay: simulating range '" << name << "'"
                << (step.variant ? " variant " + std::to_string(*step.variant + 1) : "")
                << ": pass " << step.pass + 1 << "/" << step.passes << ", kernel " << step.kernel
                << "/" << step.kernels << left << "\x1b[K" << std::flush;
      shown_ = true;
    } else if (step.kernel == 1 && step.pass == 0 && !step.variant) {
      std::cerr << "msprof-replay: info: simulating range '" << name << "' (" << step.kernels
                << " kernel launch(es), " << step.passes << " counting pass(es))\n";
    }
    ++done_;
  }

 private:
  const std::vector<SelectedRange>& selection_;
  bool terminal_;
  bool shown_ = false;
  std::uint64_t total_ = 0, done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

void report_child_error(const std::filesystem::path& folder, const std::string& message) {
  std::ofstream report(folder / child_report_name(), std::ios::app);
  report << "error " << printable(message) << "\n";
}

int run_counting_child(const trace::TraceReader& reader, const TraceCatalog& catalog,
                       ReplayDevice& device, ReplayOptions options,
                       const std::vector<SelectedRange>& selection,
                       const std::filesystem::path& folder) {
  std::vector<MetricGroup> groups;
  for (const MetricGroup group : options.metrics) {
    if (is_simulated(group)) groups.push_back(group);
  }
  const CacheModel model = complete_cache_model(options.cache_model, host_cache_model().model);
  options.counting_only = true;
  options.verify = VerifyMode::Off;
  CallgrindCounters counters(model);
  ReplaySession session(reader, catalog, device, options);
  session.count_with(counters, groups);
  CountingProgress progress(selection, static_cast<unsigned>(counters.passes(groups).size()),
                            options.variants.size());
  session.on_counting_step([&](const CountingStep& step) { progress.step(step); });
  const ReplayResult result = session.run(selection);
  std::ofstream report(folder / child_report_name());
  report << "device " << printable(device.description().name) << "\n";
  for (std::size_t i = 0; i < result.ranges.size(); ++i) {
    const auto& r = result.ranges[i];
    if (r.outcome == RangeOutcome::Failed)
      report << "failed " << i << " " << printable(r.reason) << "\n";
    else if (!r.counting_problem.empty())
      report << "failed " << i << " " << printable(r.counting_problem) << "\n";
    for (const auto& v : r.variants) {
      if (v.failed)
        report << "failed-variant " << i << " " << v.option_index << " " << printable(v.reason)
               << "\n";
    }
  }
  report.close();
  return report ? 0 : 1;
}

}  // namespace msprof::replay::cli
