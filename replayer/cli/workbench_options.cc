#include "replayer/cli/workbench_options.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "printable_text/printable_text.h"
#include "replayer/core/replay_error.h"

namespace msprof::replay::cli {

namespace {

// "NAME=VALUE" split at its first '='; UsageError naming the option's form.
std::pair<std::string, std::string> name_value(const std::string& option, const std::string& text,
                                               const std::string& form) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError(option + " '" + printable(text) + "' is not " + form);
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string read_source(const std::string& option, const std::string& name,
                        const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UsageError(option + " " + printable(name) + "=" + printable(path) + ": cannot read " +
                     printable(path) + " (" + std::strerror(errno) +
                     "); give the path of an OpenCL C file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (true) {
    const auto end = text.find(sep, at);
    out.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

WorkbenchRequest::Sweep sweep_of(const std::string& text) {
  const std::string form =
      "TARGET:WHAT=VALUES, e.g. matmul:local-size=8,16,32 (sizes XxY for several dimensions) or "
      "matmul:build-options=\"-DTILE=16|-DTILE=32\"";
  const auto colon = text.find(':');
  const auto eq = text.find('=', colon == std::string::npos ? 0 : colon);
  if (colon == std::string::npos || colon == 0 || eq == std::string::npos) {
    throw UsageError("--sweep '" + printable(text) + "' is not " + form);
  }
  WorkbenchRequest::Sweep sweep;
  sweep.target = text.substr(0, colon);
  const std::string what = text.substr(colon + 1, eq - colon - 1);
  const std::string values = text.substr(eq + 1);
  using Of = WorkbenchRequest::SweepOf;
  if (what == "local-size") {
    sweep.of = Of::LocalSize;
  } else if (what == "global-size") {
    sweep.of = Of::GlobalSize;
  } else if (what == "build-options") {
    sweep.of = Of::BuildOptions;
  } else {
    throw UsageError("--sweep '" + printable(text) + "': '" + printable(what) +
                     "' cannot be swept; sweep local-size, global-size or build-options");
  }
  sweep.values = split(values, sweep.of == Of::BuildOptions ? '|' : ',');
  const std::string option = "--sweep " + sweep.target + ":" + what;
  for (const auto& v : sweep.values) {
    if (sweep.of != Of::BuildOptions) parse_sizes(option, v, 'x');
  }
  if (sweep.values.size() < 2 && values.empty()) {
    throw UsageError("--sweep '" + printable(text) + "' gives no values; it is " + form);
  }
  return sweep;
}

}  // namespace

WorkbenchRequest workbench_request(const WorkbenchArgs& args) {
  WorkbenchRequest r;
  r.allow_global_size_change = args.allow_global_size_change;
  for (const auto& text : args.kernel_sources) {
    const auto [kernel, path] = name_value("--kernel-source", text, "KERNEL=FILE");
    auto& edit = edit_for(r.kernels, kernel);
    edit.code.source_path = path;
    edit.code.source = read_source("--kernel-source", kernel, path);
  }
  for (const auto& text : args.program_sources) {
    const auto [name, path] = name_value("--program-source", text, "PROGRAM=FILE");
    const auto id = program_id_of(name);
    if (!id) {
      throw UsageError("--program-source " + printable(name) +
                       ": a program is named by its capture id or as msprof-analyze extract "
                       "names its folder (program_7)");
    }
    auto& edit = edit_for(r.programs, *id);
    edit.code.source_path = path;
    edit.code.source = read_source("--program-source", name, path);
  }
  for (const auto& text : args.build_options) {
    const auto [target, options] =
        name_value("--build-options", text, "KERNEL=OPTIONS or PROGRAM=OPTIONS");
    if (const auto id = program_id_of(target)) {
      edit_for(r.programs, *id).code.build_options = options;
    } else {
      edit_for(r.kernels, target).code.build_options = options;
    }
  }
  for (const auto& text : args.local_sizes) {
    const auto [kernel, sizes] = name_value("--local-size", text, "KERNEL=X[,Y[,Z]]");
    edit_for(r.kernels, kernel).local_size = parse_sizes("--local-size " + kernel, sizes, ',');
  }
  for (const auto& text : args.global_sizes) {
    const auto [kernel, sizes] = name_value("--global-size", text, "KERNEL=X[,Y[,Z]]");
    edit_for(r.kernels, kernel).global_size = parse_sizes("--global-size " + kernel, sizes, ',');
  }
  for (const auto& text : args.sweeps) r.sweeps.push_back(sweep_of(text));
  return r;
}

}  // namespace msprof::replay::cli
