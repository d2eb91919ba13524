#include "replayer/core/plan/kernel_variant.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "replayer/core/replay_error.h"

namespace msprof::replay {

namespace {

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string sizes_text(const std::vector<std::uint64_t>& sizes) {
  std::vector<std::string> parts;
  for (auto s : sizes) parts.push_back(std::to_string(s));
  return join(parts, "x");
}

std::string describe(const CodeEdit& code) {
  std::vector<std::string> parts;
  // The file's name: the path is in the options the user gave.
  if (!code.source_path.empty())
    parts.push_back(std::filesystem::path(code.source_path).filename().string());
  if (code.build_options) parts.push_back("build-options=" + *code.build_options);
  return join(parts, ",");
}

std::string fixed_label(const WorkbenchRequest& r) {
  std::vector<std::string> parts;
  for (const auto& k : r.kernels) {
    std::vector<std::string> what;
    if (k.code.changes_code()) what.push_back(describe(k.code));
    if (k.local_size) what.push_back("local-size=" + sizes_text(*k.local_size));
    if (k.global_size) what.push_back("global-size=" + sizes_text(*k.global_size));
    parts.push_back(k.kernel + ":" + join(what, ","));
  }
  for (const auto& p : r.programs)
    parts.push_back("program_" + std::to_string(p.program) + ":" + describe(p.code));
  return join(parts, " ");
}

std::string of_name(WorkbenchRequest::SweepOf of) {
  switch (of) {
    case WorkbenchRequest::SweepOf::LocalSize:
      return "local-size";
    case WorkbenchRequest::SweepOf::GlobalSize:
      return "global-size";
    case WorkbenchRequest::SweepOf::BuildOptions:
      return "build-options";
  }
  return "?";
}

void apply(Variant& v, const WorkbenchRequest::Sweep& sweep, const std::string& value) {
  using Of = WorkbenchRequest::SweepOf;
  const std::string option = "--sweep " + sweep.target + ":" + of_name(sweep.of);
  switch (sweep.of) {
    case Of::LocalSize:
      edit_for(v.kernels, sweep.target).local_size = parse_sizes(option, value, 'x');
      break;
    case Of::GlobalSize:
      edit_for(v.kernels, sweep.target).global_size = parse_sizes(option, value, 'x');
      break;
    case Of::BuildOptions:
      if (const auto id = program_id_of(sweep.target)) {
        edit_for(v.programs, *id).code.build_options = value;
      } else {
        edit_for(v.kernels, sweep.target).code.build_options = value;
      }
      break;
  }
}

}  // namespace

KernelEdit& edit_for(std::vector<KernelEdit>& edits, const std::string& kernel) {
  for (auto& k : edits) {
    if (k.kernel == kernel) return k;
  }
  edits.push_back({kernel, {}, {}, {}});
  return edits.back();
}

ProgramEdit& edit_for(std::vector<ProgramEdit>& edits, trace::CaptureId program) {
  for (auto& p : edits) {
    if (p.program == program) return p;
  }
  edits.push_back({program, {}});
  return edits.back();
}

std::optional<trace::CaptureId> program_id_of(const std::string& text) {
  const std::string digits = text.rfind("program_", 0) == 0 ? text.substr(8) : text;
  if (digits.empty() || digits.size() > 18 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoull(digits);
}

std::vector<std::uint64_t> parse_sizes(const std::string& option, const std::string& text,
                                       char sep) {
  std::vector<std::uint64_t> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(sep, at), text.size());
    const std::string part = text.substr(at, end - at);
    if (part.empty() || part.size() > 12 ||
        !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoull(part) == 0) {
      out.clear();
      break;
    }
    out.push_back(std::stoull(part));
    at = end + 1;
  }
  if (out.empty() || out.size() > 3) {
    const std::string form = sep == 'x' ? "X[xY[xZ]]" : "X[,Y[,Z]]";
    throw UsageError(option + " '" + text + "' is not " + form + " (one to three positive sizes)");
  }
  return out;
}

std::vector<Variant> expand_variants(const WorkbenchRequest& request) {
  if (request.empty()) return {};
  Variant base;
  base.kernels = request.kernels;
  base.programs = request.programs;
  base.label = fixed_label(request);
  std::vector<Variant> out{base};
  for (const auto& sweep : request.sweeps) {
    std::vector<Variant> next;
    for (const auto& v : out) {
      for (const auto& value : sweep.values) {
        Variant made = v;
        apply(made, sweep, value);
        const std::string part = sweep.target + ":" + of_name(sweep.of) + "=" + value;
        made.label = made.label.empty() ? part : made.label + " " + part;
        next.push_back(std::move(made));
      }
    }
    out = std::move(next);
  }
  return out;
}

std::vector<std::string> changed_kernels(const Variant& variant, const trace::Range& range,
                                         const TraceCatalog& catalog) {
  std::set<std::string> names;
  for (const auto& command : range.commands) {
    const auto* launch = std::get_if<trace::KernelLaunch>(&command.body);
    if (launch == nullptr) continue;
    const auto& k = catalog.kernel(launch->kernel);
    const bool edited = std::any_of(variant.kernels.begin(), variant.kernels.end(),
                                    [&](const KernelEdit& e) { return e.kernel == k.name; }) ||
                        std::any_of(variant.programs.begin(), variant.programs.end(),
                                    [&](const ProgramEdit& e) { return e.program == k.program; });
    if (edited) names.insert(k.name);
  }
  return {names.begin(), names.end()};
}

bool touches(const Variant& variant, const trace::Range& range, const TraceCatalog& catalog) {
  return !changed_kernels(variant, range, catalog).empty();
}

namespace {

struct RangeKernels {
  std::map<std::string, std::vector<const trace::KernelLaunch*>> launches;  // by name
  std::map<trace::CaptureId, std::set<std::string>> programs;               // kernel names
};

RangeKernels kernels_of(const trace::Range& range, const TraceCatalog& catalog) {
  RangeKernels out;
  for (const auto& command : range.commands) {
    const auto* launch = std::get_if<trace::KernelLaunch>(&command.body);
    if (launch == nullptr) continue;
    const auto& k = catalog.kernel(launch->kernel);
    out.launches[k.name].push_back(launch);
    out.programs[k.program].insert(k.name);
  }
  return out;
}

}  // namespace

void check_variant_targets(const Variant& variant, const std::vector<const trace::Range*>& ranges,
                           const TraceCatalog& catalog) {
  RangeKernels all;
  for (const auto* range : ranges) {
    auto some = kernels_of(*range, catalog);
    for (auto& [name, l] : some.launches) all.launches[name];
    for (auto& [id, names] : some.programs) all.programs[id].insert(names.begin(), names.end());
  }
  std::vector<std::string> kernel_names, program_names;
  for (const auto& [name, l] : all.launches) kernel_names.push_back(name);
  for (const auto& [id, names] : all.programs) {
    program_names.push_back(std::to_string(id) + " (" + join({names.begin(), names.end()}, ", ") +
                            ")");
  }
  for (const auto& edit : variant.kernels) {
    if (all.launches.count(edit.kernel) == 0) {
      throw UsageError("kernel '" + edit.kernel +
                       "' is not launched in the selected ranges; their kernels: " +
                       (kernel_names.empty() ? "none" : join(kernel_names, ", ")));
    }
  }
  for (const auto& edit : variant.programs) {
    if (all.programs.count(edit.program) == 0) {
      throw UsageError("program " + std::to_string(edit.program) +
                       " has no kernel launched in the selected ranges; their programs: " +
                       (program_names.empty() ? "none" : join(program_names, "; ")) +
                       " (the ids msprof-analyze extract names programs/program_ID by)");
    }
  }
}

void check_variant(const Variant& variant, const trace::Range& range, const TraceCatalog& catalog,
                   bool allow_global_size_change) {
  const RangeKernels kernels = kernels_of(range, catalog);
  const std::string where = "range '" + range.name + "'";
  for (const auto& edit : variant.kernels) {
    const auto it = kernels.launches.find(edit.kernel);
    if (it == kernels.launches.end()) continue;  // a kernel of another range
    for (const auto* launch : it->second) {
      const auto& recorded = launch->global_size;
      if (edit.global_size && edit.global_size->size() != launch->work_dim) {
        throw UsageError("--global-size " + edit.kernel + "=" + sizes_text(*edit.global_size) +
                         " has " + std::to_string(edit.global_size->size()) +
                         " dimension(s), its launches in " + where + " " +
                         std::to_string(launch->work_dim) + "; give one size per dimension");
      }
      if (edit.global_size && *edit.global_size != recorded && !allow_global_size_change) {
        throw UsageError("--global-size " + edit.kernel + "=" + sizes_text(*edit.global_size) +
                         " changes the work-items from " + sizes_text(recorded) +
                         ", so the kernel computes something else; add "
                         "--allow-global-size-change to measure it anyway (its outputs are "
                         "verified either way)");
      }
      if (!edit.local_size) continue;
      if (edit.local_size->size() != launch->work_dim) {
        throw UsageError("local size " + sizes_text(*edit.local_size) + " of kernel '" +
                         edit.kernel + "' has " + std::to_string(edit.local_size->size()) +
                         " dimension(s), its launches in " + where + " " +
                         std::to_string(launch->work_dim) + "; give one size per dimension");
      }
      const auto& global = edit.global_size ? *edit.global_size : recorded;
      for (std::size_t d = 0; d < global.size() && d < edit.local_size->size(); ++d) {
        if (global[d] % (*edit.local_size)[d] != 0) {
          throw UsageError("local size " + sizes_text(*edit.local_size) +
                           " does not divide the global size " + sizes_text(global) +
                           " of kernel '" + edit.kernel + "' in " + where +
                           "; choose a local size that divides it");
        }
      }
    }
  }
}

}  // namespace msprof::replay
