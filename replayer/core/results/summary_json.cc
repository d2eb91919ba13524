#include "replayer/core/results/summary_json.h"

#include "replayer/core/results/json_writer.h"

namespace msprof::replay {

namespace {

void write_stats(JsonWriter& j, std::string_view name, const Statistics& s) {
  j.key(name).begin_object();
  j.key("min").value(s.min).key("median").value(s.median).key("mean").value(s.mean);
  j.key("max").value(s.max).key("stddev").value(s.stddev);
  j.end_object();
}

void write_sizes(JsonWriter& j, std::string_view name, const std::vector<std::uint64_t>& sizes) {
  j.key(name).begin_array();
  for (auto s : sizes) j.value(s);
  j.end_array();
}

void write_verification(JsonWriter& j, const Verification& v) {
  j.key("verification").begin_object();
  j.key("status").value(verification_status_name(v.status));
  j.key("reason").value(v.reason);
  j.key("pass").value(v.pass).key("passes_compared").value(v.passes_compared);
  j.key("buffers").begin_array();
  for (const auto& b : v.buffers) {
    const auto& c = b.comparison;
    j.begin_object();
    j.key("buffer").value(c.buffer).key("status").value(verification_status_name(b.status));
    j.key("arg_names").begin_array();
    for (const auto& n : b.arg_names) j.value(n);
    j.end_array();
    j.key("allowed").value(b.allowed);
    j.key("size").value(c.size).key("element").value(c.element.name);
    j.key("element_size").value(c.element.size);
    j.key("first_index").value(c.first_index).key("differing").value(c.differing);
    j.key("outside_tolerance").value(c.outside);
    j.key("max_abs").value(c.max_abs).key("max_rel").value(c.max_rel);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

void write_passes(JsonWriter& j, std::string_view name, const std::vector<double>& passes) {
  j.key(name).begin_array();
  for (double d : passes) j.value(d);
  j.end_array();
}

void write_counts(JsonWriter& j, const std::vector<GroupCounts>& all) {
  j.key("metrics").begin_object();
  for (const auto& counts : all) {
    j.key(metric_group_name(counts.group)).begin_object();
    j.key("backend").value(counts.backend);
    for (const auto& [column, value] : counts.values) j.key(column).value(value);
    j.end_object();
  }
  j.end_object();
}

void write_kernel(JsonWriter& j, const KernelResult& k) {
  j.begin_object();
  j.key("launch").value(k.launch).key("seq").value(k.seq).key("name").value(k.name);
  j.key("folder").value(k.folder);
  write_sizes(j, "global_size", k.global_size);
  write_sizes(j, "local_size", k.local_size);
  j.key("work_groups").value(k.work_groups).key("bytes").value(k.bytes);
  j.key("bandwidth_gbps").value(k.bandwidth_gbps);
  write_stats(j, "duration_us", k.duration_us);
  write_stats(j, "queued_us", k.queued_stats_us);
  write_passes(j, "passes_us", k.pass_us);
  j.key("original_us").value(k.original_us).key("ratio_to_original").value(k.ratio_to_original);
  write_counts(j, k.counts);
  j.end_object();
}

void write_cache_level(JsonWriter& j, std::string_view name,
                       const std::optional<CacheLevelModel>& level) {
  j.key(name);
  if (!level) {
    j.null();
    return;
  }
  j.begin_object();
  j.key("size_bytes").value(level->size_bytes).key("ways").value(level->ways);
  j.key("line_bytes").value(level->line_bytes);
  j.end_object();
}

void write_metrics(JsonWriter& j, const MetricsSummary& m) {
  j.key("metrics").begin_object();
  j.key("groups").begin_array();
  for (const auto group : m.groups) j.value(metric_group_name(group));
  j.end_array();
  j.key("backends").begin_object();
  for (std::size_t i = 0; i < m.groups.size() && i < m.backends.size(); ++i)
    j.key(metric_group_name(m.groups[i])).value(m.backends[i]);
  j.end_object();
  j.key("counting_passes").value(m.counting_passes);
  j.key("cache_model");
  if (m.cache_model) {
    j.begin_object();
    write_cache_level(j, "I1", m.cache_model->i1);
    write_cache_level(j, "D1", m.cache_model->d1);
    write_cache_level(j, "LL", m.cache_model->ll);
    j.end_object();
  } else {
    j.null();
  }
  j.key("simulated_device").value(m.simulated_device);
  j.key("notes").begin_array();
  for (const auto& note : m.notes) j.value(note);
  j.end_array();
  j.end_object();
}

void write_variant(JsonWriter& j, const VariantResult& v) {
  j.begin_object();
  j.key("label").value(v.label).key("status").value(v.failed ? "failed" : "measured");
  j.key("reason").value(v.reason).key("build_log").value(v.build_log);
  j.key("changed_kernels").begin_array();
  for (const auto& k : v.changed_kernels) j.value(k);
  j.end_array();
  write_stats(j, "changed_us", v.changed_us);
  write_stats(j, "recorded_changed_us", v.baseline_changed_us);
  write_stats(j, "wall_us", v.wall_us);
  write_passes(j, "changed_passes_us", v.changed_pass_us);
  write_passes(j, "recorded_changed_passes_us", v.baseline_changed_pass_us);
  write_passes(j, "wall_passes_us", v.wall_pass_us);
  j.key("ratio").value(v.ratio).key("changed_ratio").value(v.changed_ratio);
  j.key("beyond_spread").value(v.beyond_spread);
  write_verification(j, v.verification);
  j.key("launch_metrics").begin_array();
  for (const auto& launch : v.counts) {
    j.begin_object();
    j.key("seq").value(launch.seq).key("name").value(launch.name);
    write_counts(j, launch.counts);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

}  // namespace

std::string summary_json(const ReplayResult& result) {
  JsonWriter j;
  j.begin_object();
  j.key("format").value("msprof-replay-result").key("version").value(2u);
  j.key("trace").value(result.trace).key("created").value(result.created);
  j.key("device").begin_object();
  j.key("index").value(result.device.index).key("name").value(result.device.name);
  j.key("platform").value(result.device.platform).key("driver").value(result.device.driver);
  j.end_object();
  const auto& o = result.options;
  j.key("options").begin_object();
  j.key("replay_mode").value(replay_mode_name(o.mode)).key("launch_count").value(o.launch_count);
  j.key("warm_up").value(o.warm_up).key("cache_control").value(cache_control_name(o.cache_control));
  j.key("verify").value(verify_mode_name(o.verify));
  j.key("tolerance");
  if (o.tolerance) {
    j.begin_object().key("atol").value(o.tolerance->atol).key("rtol").value(o.tolerance->rtol);
    j.end_object();
  } else {
    j.null();
  }
  j.key("allow_nondeterministic").begin_array();
  if (o.allow_all_nondeterministic) j.value("all");
  for (const auto& name : o.allow_nondeterministic) j.value(name);
  j.end_array();
  j.key("rebuild").value(o.rebuild);
  j.key("restore").value(restore_policy_name(o.restore));
  j.key("memory_limit");
  if (o.memory_limit) {
    j.value(*o.memory_limit);
  } else {
    j.null();
  }
  j.key("cache_clear").value(result.cache_clear);
  j.key("thread_control").value(thread_control_name(o.thread_control));
  j.key("thread_placement").value(result.thread_placement);
  j.end_object();
  j.key("notes").begin_array();
  for (const auto& note : result.notes) j.value(note);
  j.end_array();
  write_metrics(j, result.metrics);
  j.key("ranges").begin_array();
  for (const auto& r : result.ranges) {
    j.begin_object();
    j.key("name").value(r.name).key("status").value(range_outcome_name(r.outcome));
    j.key("reason").value(r.reason).key("program_source").value(r.program_source);
    j.key("passes").value(r.passes);
    write_stats(j, "wall_us", r.wall_us);
    write_stats(j, "kernel_sum_us", r.kernel_sum_us);
    write_stats(j, "restore_us", r.restore_us);
    j.key("restored_bytes").value(r.restored_bytes);
    j.key("restore").begin_object();
    j.key("copies_bytes").value(r.restore_copy_bytes);
    j.key("trace_bytes").value(r.restore_trace_bytes);
    j.key("zeros_bytes").value(r.restore_zero_bytes);
    j.end_object();
    j.key("memory").begin_object();
    j.key("device_bytes").value(r.memory_device_bytes);
    j.key("host_bytes").value(r.memory_host_bytes);
    j.end_object();
    write_verification(j, r.verification);
    j.key("kernels").begin_array();
    for (const auto& k : r.kernels) write_kernel(j, k);
    j.end_array();
    write_passes(j, "wall_passes_us", r.wall_pass_us);
    j.key("variants").begin_array();
    for (const auto& v : r.variants) write_variant(j, v);
    j.end_array();
    j.key("best_variant");
    if (const VariantResult* best = r.best_variant()) {
      j.value(best->label);
    } else {
      j.null();
    }
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.text() + "\n";
}

}  // namespace msprof::replay
