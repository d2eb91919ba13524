#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "replayer/core/metric_groups.h"

namespace msprof::replay {

// Counts what kernel launches do during the counting passes that follow a
// range's timed passes. The session runs a counting pass as a timed one
// (same restore, same cache control, same mode), but launches the kernels
// one at a time, each between begin_kernel() and end_kernel(); a counting
// pass is never timed. One interface for every way of counting: hardware
// and software counters (perf), a simulator (callgrind, from inside the
// simulated process), a device's own profiler (CUPTI's range profiler).
class CounterBackend {
 public:
  virtual ~CounterBackend() = default;
  // "perf", "sim": what GroupCounts::backend says.
  virtual std::string name() const = 0;
  // How `groups` are collected: one inner list per counting pass. A backend
  // with few counters takes a group per pass, so a ratio's numerator and
  // denominator always come from the same pass.
  virtual std::vector<std::vector<MetricGroup>> passes(
      const std::vector<MetricGroup>& groups) const = 0;
  // Around a range's counting passes (and its variants'): a simulator
  // instruments only in between, so that loading the next range and its
  // warm-up passes run at native speed.
  virtual void begin_range() {}
  virtual void end_range() {}
  // Before the first command of a counting pass of range `range_index` (its
  // place in the selection), collecting `groups`; pass_index counts the
  // range's counting passes from 0.
  virtual void begin_pass(std::size_t range_index, unsigned pass_index,
                          const std::vector<MetricGroup>& groups) = 0;
  // The passes that follow count a workbench variant (its index among the
  // options' variants), or the recorded range (nullopt). For a backend
  // whose counts are read later, from outside, to tell them apart.
  virtual void count_variant(std::optional<std::size_t> /*variant*/) {}
  virtual void begin_kernel(std::uint64_t seq) = 0;
  // The counts of the launch just completed. Empty where they are read
  // later, from outside (a simulator's output files).
  virtual std::vector<GroupCounts> end_kernel(std::uint64_t seq) = 0;
  virtual void end_pass() = 0;
  // The counts see a cache of the backend's own (a simulator's), not the
  // device's: then clear_cache() clears that one and the device's clear is
  // neither prepared nor run.
  virtual bool simulates_cache() const { return false; }
  // Clears the cache the counts see, where the backend's cache is not the
  // device's (a simulated one). False: the device's clear is the one.
  virtual bool clear_cache() { return false; }
  // Said once in the results: the threads counted, the model simulated.
  virtual std::vector<std::string> notes() const { return {}; }
};

}  // namespace msprof::replay
