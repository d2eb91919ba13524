#include "replayer/core/session/counting_pass.h"

#include <algorithm>

namespace msprof::replay {

void run_counting_pass(LoadedRange& loaded, const trace::Range& range, const ReplayOptions& options,
                       CounterBackend& counters, const std::vector<MetricGroup>& groups,
                       CountingStep step, std::vector<KernelResult>& kernels,
                       const std::function<void(const CountingStep&)>& on_kernel) {
  const bool clear = options.cache_control == CacheControl::All;
  const auto clear_cache = [&] {
    if (!counters.clear_cache()) loaded.clear_cache();
  };
  const std::span<const trace::Command> commands(range.commands);
  // First, so that a simulator sees the restore and the clear too.
  counters.begin_pass(step.range_index, step.pass, groups);
  // Ended whatever happens, so a backend's counters never stay enabled.
  struct PassEnd {
    CounterBackend& counters;
    ~PassEnd() { counters.end_pass(); }
  } pass_end{counters};
  loaded.restore();
  // Range mode keeps what each kernel leaves in the cache for the next one,
  // as in a timed pass: the cache is cleared once, before the first.
  if (options.mode == ReplayMode::Range && clear) clear_cache();
  loaded.begin_pass();
  std::size_t first = 0;
  for (std::size_t i = 0; i <= commands.size(); ++i) {
    if (i < commands.size() && !std::holds_alternative<trace::KernelLaunch>(commands[i].body))
      continue;
    if (i > first) loaded.execute(commands.subspan(first, i - first));
    if (i == commands.size()) break;
    if (options.mode == ReplayMode::Kernel && clear) clear_cache();
    ++step.kernel;
    if (on_kernel) on_kernel(step);
    const std::uint64_t seq = commands[i].seq;
    counters.begin_kernel(seq);
    loaded.execute(commands.subspan(i, 1));
    auto counts = counters.end_kernel(seq);
    const auto kernel = std::find_if(kernels.begin(), kernels.end(),
                                     [&](const KernelResult& k) { return k.seq == seq; });
    if (kernel != kernels.end()) {
      for (auto& c : counts) kernel->counts.push_back(std::move(c));
    }
    first = i + 1;
  }
}

}  // namespace msprof::replay
