#include "replayer/core/results/terminal_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "printable_text/printable_text.h"
#include "replayer/core/results/metrics_files.h"
#include "replayer/core/results/summary_csv.h"

namespace msprof::replay {

namespace {

using Row = std::vector<std::string>;

// `indent` starts every line.
std::string layout(const std::vector<Row>& rows, const std::string& indent = "") {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string number(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

std::string buffer_name(const BufferVerification& b) {
  std::string names;
  for (const auto& n : b.arg_names) names += (names.empty() ? "" : "/") + printable(n);
  return "buffer " + std::to_string(b.comparison.buffer) + " (" +
         (names.empty() ? "" : names + ", ") + b.comparison.element.name + ")";
}

std::string difference_text(const BufferComparison& c) {
  return "first index " + std::to_string(c.first_index) + ", " + std::to_string(c.differing) +
         " of " + std::to_string(c.size / std::max<std::uint32_t>(c.element.size, 1)) +
         " elements differ, max abs " + number(c.max_abs) + ", max rel " + number(c.max_rel);
}

// One line per buffer that is not bit-exact, after the verdict of a range
// or a variant of it.
std::string verification_details(const std::string& name, const Verification& v) {
  const std::string head = "  " + name + ": " + std::string(verification_status_name(v.status));
  if (!v.reason.empty()) return head + " (" + v.reason + ")\n";
  std::string out;
  unsigned exact = 0;
  for (const auto& b : v.buffers) {
    switch (b.status) {
      case VerificationStatus::BitExact:
        ++exact;
        break;
      case VerificationStatus::Nondeterministic:
        out += "    " + buffer_name(b) +
               ": nondeterministic: replayed passes disagree with each other, so the program's "
               "own kernel gives different results from run to run" +
               (b.allowed ? " (allowed)"
                          : "; accept it with --allow-nondeterministic " +
                                std::to_string(b.comparison.buffer)) +
               "\n";
        break;
      case VerificationStatus::WithinTolerance:
        out +=
            "    " + buffer_name(b) + ": within tolerance: " + difference_text(b.comparison) + "\n";
        break;
      default:
        out += "    " + buffer_name(b) + ": differs in pass " + std::to_string(v.pass) + ": " +
               difference_text(b.comparison) +
               (b.comparison.outside != b.comparison.differing
                    ? ", " + std::to_string(b.comparison.outside) + " outside the tolerance"
                    : "") +
               "\n";
        break;
    }
  }
  return head + " (" + std::to_string(v.buffers.size()) + " buffer(s), " + std::to_string(exact) +
         " bit-exact, " + std::to_string(v.passes_compared) + " pass(es) checked)\n" + out;
}

// How the range's programs were made on the replay device, in words.
std::string program_text(const std::string& origins) {
  std::string out;
  std::istringstream list(origins);
  for (std::string origin; std::getline(list, origin, ',');) {
    const std::string text = origin == "binary"    ? "the recorded device binary"
                             : origin == "source"  ? "rebuilt from source"
                             : origin == "il"      ? "rebuilt from IL"
                             : origin == "builtin" ? "the device's built-in kernels"
                                                   : origin;
    out += (out.empty() ? "" : " and ") + text;
  }
  return out.empty() ? "none" : out;
}

std::string ratio_text(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", ratio);
  return buf;
}

// The workbench: per range, the recorded range and each variant measured
// beside it, then the fastest verified variant in one line.
std::string variants_table(const ReplayResult& result) {
  std::vector<Row> rows = {{"range", "variant", "changed kernels", "median_us", "min_us", "max_us",
                            "x recorded", "range median_us", "x recorded", "beyond spread",
                            "verification"}};
  std::string failed, best;
  for (const auto& r : result.ranges) {
    if (r.outcome != RangeOutcome::Replayed || r.variants.empty()) continue;
    const std::string range = printable(r.name);
    bool baseline_shown = false;
    for (const auto& v : r.variants) {
      if (v.failed) {
        failed += "  " + range + " with " + printable(v.label) + ": " + printable(v.reason) + "\n";
        continue;
      }
      std::string kernels;
      for (const auto& k : v.changed_kernels) kernels += (kernels.empty() ? "" : ",") + k;
      kernels = printable(kernels);
      if (!baseline_shown) {
        rows.push_back({range, "(recorded)", kernels, format_number(v.baseline_changed_us.median),
                        format_number(v.baseline_changed_us.min),
                        format_number(v.baseline_changed_us.max), "1.00",
                        format_number(r.wall_us.median), "1.00", "",
                        std::string(verification_status_name(r.verification.status))});
        baseline_shown = true;
      }
      rows.push_back({range, printable(v.label), kernels, format_number(v.changed_us.median),
                      format_number(v.changed_us.min), format_number(v.changed_us.max),
                      ratio_text(v.changed_ratio), format_number(v.wall_us.median),
                      ratio_text(v.ratio), v.beyond_spread ? "yes" : "no",
                      std::string(verification_status_name(v.verification.status))});
    }
    if (const VariantResult* b = r.best_variant()) {
      best += "best verified variant of " + range + ": " + printable(b->label) + ", the range " +
              ratio_text(b->ratio) + "x the recorded one (" +
              (b->beyond_spread ? "beyond" : "within") + " the spread of the passes), " +
              std::string(verification_status_name(b->verification.status)) + "\n";
    } else {
      best += "no variant of " + range + " verified\n";
    }
  }
  if (rows.size() == 1 && failed.empty()) return "";
  std::string out =
      "variants (each pass right after a pass of the recorded range, from the same restored "
      "state and cleared cache):\n";
  if (rows.size() > 1) out += layout(rows);
  if (!failed.empty()) out += "variants not measured:\n" + failed;
  return out + best;
}

// Per range, a row per kernel launch and a column per counted figure, a
// group at a time: the counting passes' figures, never times.
std::string metrics_table(const ReplayResult& result) {
  if (result.metrics.groups.empty()) return "";
  std::string out;
  // A section per range, a table per group in it: a launch's figures
  // read across, the range's launches in order down.
  for (const auto& r : result.ranges) {
    if (r.outcome != RangeOutcome::Replayed) continue;
    out += "metrics of range " + printable(r.name) + ":\n";
    for (const MetricGroup group : result.metrics.groups) {
      const std::string* backend = result.metrics.backend_of(group);
      Row header = {"kernel"};
      std::vector<std::string_view> shown;
      // Only the columns some launch has: a backend leaves out what it cannot count.
      for (const auto& column : metric_columns(group)) {
        const bool any = std::any_of(r.kernels.begin(), r.kernels.end(), [&](const auto& k) {
          const GroupCounts* c = k.counts_of(group);
          return c != nullptr && c->value(column.name).has_value();
        });
        if (!any) continue;
        header.push_back(std::string(column.name));
        shown.push_back(column.name);
      }
      std::vector<Row> rows = {header};
      for (const auto& k : r.kernels) {
        const GroupCounts* c = k.counts_of(group);
        if (c == nullptr) continue;
        Row row = {printable(k.name)};
        for (const auto column : shown) {
          const auto value = c->value(column);
          row.push_back(value ? metric_value_text(*value) : "-");
        }
        rows.push_back(std::move(row));
      }
      out +=
          "  " + std::string(metric_group_name(group)) + " (" + (backend ? *backend : "") + "):\n";
      if (rows.size() == 1) {
        out += "    no kernel was counted" +
               (r.counting_problem.empty() ? std::string() : ": " + r.counting_problem) + "\n";
        continue;
      }
      out += layout(rows, "    ");
    }
  }
  if (result.metrics.cache_model) {
    const auto& m = *result.metrics.cache_model;
    out += "simulated cache: I1 " + m.i1->text() + "; D1 " + m.d1->text() + "; LL " + m.ll->text() +
           "\n";
  }
  // The workbench: each variant's changed launches beside the recorded ones.
  std::vector<Row> variant_rows = {
      {"range", "variant", "kernel", "group", "column", "recorded", "variant", "change"}};
  for (const auto& r : result.ranges) {
    for (const auto& v : r.variants) {
      for (const auto& launch : v.counts) {
        const auto recorded =
            std::find_if(r.kernels.begin(), r.kernels.end(),
                         [&](const KernelResult& k) { return k.seq == launch.seq; });
        if (recorded == r.kernels.end()) continue;
        for (const auto& counts : launch.counts) {
          const GroupCounts* base = recorded->counts_of(counts.group);
          if (base == nullptr) continue;
          for (const auto& [column, value] : counts.values) {
            const auto before = base->value(column);
            if (!before) continue;
            std::string change = "-";
            if (*before != 0) {
              char text[32];
              std::snprintf(text, sizeof text, "%+.1f%%", (value - *before) / *before * 100);
              change = text;
            }
            variant_rows.push_back({printable(r.name), printable(v.label), printable(launch.name),
                                    std::string(metric_group_name(counts.group)), column,
                                    metric_value_text(*before), metric_value_text(value), change});
          }
        }
      }
    }
  }
  if (variant_rows.size() > 1)
    out += "variants counted, launch by launch:\n" + layout(variant_rows);
  if (!result.metrics.simulated_device.empty())
    out += "simulated device: " + result.metrics.simulated_device + "\n";
  for (const auto& note : result.metrics.notes) out += "metrics: " + note + "\n";
  return out;
}

}  // namespace

std::string terminal_table(const ReplayResult& result) {
  std::vector<Row> rows = {
      {"range", "kernel", "median_us", "min_us", "max_us", "GB/s", "x original", "verification"}};
  std::string skipped, programs, verification_lines;
  for (const auto& r : result.ranges) {
    if (r.outcome != RangeOutcome::Replayed) {
      skipped += "  " + printable(r.name) + ": " + std::string(range_outcome_name(r.outcome)) +
                 ", " + printable(r.reason) + "\n";
      continue;
    }
    programs += "  " + printable(r.name) + ": " + program_text(r.program_source) + "\n";
    verification_lines += verification_details(printable(r.name), r.verification);
    for (const auto& v : r.variants) {
      if (!v.failed)
        verification_lines +=
            verification_details(printable(r.name) + " with " + printable(v.label), v.verification);
    }
    const std::string verification(verification_status_name(r.verification.status));
    for (const auto& k : r.kernels) {
      rows.push_back({printable(r.name), printable(k.name), format_number(k.duration_us.median),
                      format_number(k.duration_us.min), format_number(k.duration_us.max),
                      format_number(k.bandwidth_gbps),
                      k.original_us > 0 ? format_number(k.ratio_to_original) : "-", verification});
    }
    rows.push_back({printable(r.name), "(range wall)", format_number(r.wall_us.median),
                    format_number(r.wall_us.min), format_number(r.wall_us.max), "", "",
                    verification});
  }
  std::string out = "device " + std::to_string(result.device.index) + ": " + result.device.name +
                    " (" + result.device.platform + ", driver " + result.device.driver + ")\n";
  if (!result.cache_clear.empty())
    out += "cache cleared before each pass: " + result.cache_clear + "\n";
  if (!result.thread_placement.empty()) out += "device threads: " + result.thread_placement + "\n";
  if (rows.size() > 1) out += layout(rows);
  if (!programs.empty()) out += "programs:\n" + programs;
  if (!verification_lines.empty()) out += "verification:\n" + verification_lines;
  if (!skipped.empty()) out += "not replayed:\n" + skipped;
  out += metrics_table(result);
  out += variants_table(result);
  return out;
}

}  // namespace msprof::replay

namespace msprof::replay {

std::string range_listing(const std::vector<trace::Range>& ranges) {
  std::vector<Row> rows = {{"order", "range", "status", "commands", "kernels", "reason"}};
  for (const auto& r : ranges) {
    std::size_t kernels = 0;
    for (const auto& c : r.commands) kernels += std::holds_alternative<trace::KernelLaunch>(c.body);
    rows.push_back({std::to_string(r.order), printable(r.name),
                    std::string(trace::range_status_name(r.status)),
                    std::to_string(r.commands.size()), std::to_string(kernels),
                    printable(r.status_reason)});
  }
  return layout(rows);
}

}  // namespace msprof::replay
