#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/trace_objects.h"

namespace msprof::replay {

// The workbench: a range replayed with other code, build options or launch
// sizes for some of its kernels, interleaved with the recorded range and
// verified against its recorded final state. These are the values a variant
// is made of; plan/kernel_variant.h expands and checks them against a trace,
// and a backend builds what they name (LoadedRange::prepare_variant).

// What replaces the code of a kernel or of a program; unset fields keep the
// recorded ones.
struct CodeEdit {
  std::string source_path;  // as the user gave it, for messages; empty: no new source
  std::string source;       // the file's text
  std::optional<std::string> build_options;
  bool changes_code() const { return !source_path.empty() || build_options.has_value(); }
};

// Every kernel of the range by this name.
struct KernelEdit {
  std::string kernel;
  CodeEdit code;
  std::optional<std::vector<std::uint64_t>> global_size, local_size;
};

// Every kernel of the range made from this program.
struct ProgramEdit {
  trace::CaptureId program = 0;
  CodeEdit code;
};

struct Variant {
  std::string label;  // what differs from the recorded range, short
  std::vector<KernelEdit> kernels;
  std::vector<ProgramEdit> programs;
};

}  // namespace msprof::replay
