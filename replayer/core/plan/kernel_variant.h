#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/trace_objects.h"
#include "format/trace_range.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/workbench_variant.h"

namespace msprof::replay {

// Expands what the command line asked of the workbench into variants and
// checks them against the ranges they touch; the variants themselves are
// plain values (workbench_variant.h), which a backend builds
// (LoadedRange::prepare_variant).

// Names of the kernels whose code or sizes the variant changes (timed apart).
std::vector<std::string> changed_kernels(const Variant& variant, const trace::Range& range,
                                         const TraceCatalog& catalog);
// Whether the variant changes anything in the range.
bool touches(const Variant& variant, const trace::Range& range, const TraceCatalog& catalog);

// What the command line asked for: fixed edits, applied to every variant,
// and sweeps, each variant one combination of their values.
struct WorkbenchRequest {
  std::vector<KernelEdit> kernels;
  std::vector<ProgramEdit> programs;
  enum class SweepOf { LocalSize, GlobalSize, BuildOptions };
  struct Sweep {
    std::string target;  // kernel name, or program id for build options
    SweepOf of = SweepOf::LocalSize;
    std::vector<std::string> values;
  };
  std::vector<Sweep> sweeps;
  // --global-size that changes how many work-items run is refused without.
  bool allow_global_size_change = false;
  bool empty() const { return kernels.empty() && programs.empty() && sweeps.empty(); }
};

// One variant for the fixed edits, or one per combination of sweep values.
// UsageError for a sweep value that is not what its kind takes.
std::vector<Variant> expand_variants(const WorkbenchRequest& request);

// The edit of that kernel (or program) among `edits`, added empty when
// there is none: one edit per target, whichever options fill it.
KernelEdit& edit_for(std::vector<KernelEdit>& edits, const std::string& kernel);
ProgramEdit& edit_for(std::vector<ProgramEdit>& edits, trace::CaptureId program);

// A program named as msprof-analyze extract names its folder ("program_7")
// or by its capture id ("7"); nullopt for anything else (a kernel name).
std::optional<trace::CaptureId> program_id_of(const std::string& text);

// "X[,Y[,Z]]" (sep ',') or "XxY" (sep 'x'); UsageError naming `option`.
std::vector<std::uint64_t> parse_sizes(const std::string& option, const std::string& text,
                                       char sep);

// Every kernel and program the variant names is launched in one of the
// ranges at least; else UsageError listing those that are.
void check_variant_targets(const Variant& variant, const std::vector<const trace::Range*>& ranges,
                           const TraceCatalog& catalog);

// Checks the variant's launch sizes against every launch of their kernel in
// the range, before anything is built. UsageError with one line saying what
// and how.
void check_variant(const Variant& variant, const trace::Range& range, const TraceCatalog& catalog,
                   bool allow_global_size_change);

}  // namespace msprof::replay
