#include "replayer/opencl/variant_builder.h"

#include <set>

#include "replayer/core/replay_error.h"
#include "replayer/core/verify/element_type.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/kernel_arg_info.h"
#include "replayer/opencl/program_builder.h"

namespace msprof::replay::opencl {

namespace {

// Where a variant's code comes from, for messages.
std::string origin_of(const CodeEdit& code, const trace::Program& recorded) {
  return !code.source_path.empty() ? code.source_path
                                   : "program " + std::to_string(recorded.id) + "'s source";
}

ClProgram program_of_text(cl_context context, const std::string& text) {
  const char* strings[] = {text.c_str()};
  const std::size_t lengths[] = {text.size()};
  cl_int err = CL_SUCCESS;
  ClProgram program(clCreateProgramWithSource(context, 1, strings, lengths, &err));
  cl_check(err, "clCreateProgramWithSource");
  return program;
}

// The program the code edit makes of `recorded`: its new source, else the
// recorded source or IL, built with its options, else the recorded ones.
ClProgram build_edit(cl_context context, cl_device_id device, const CodeEdit& code,
                     const trace::Program& recorded, const trace::TraceReader& reader,
                     const std::string& extra_options = "") {
  ClProgram program;
  if (!code.source_path.empty()) {
    program = program_of_text(context, code.source);
  } else {
    cl_int err = CL_SUCCESS;
    std::string origin;
    program = program_from_source_or_il(context, recorded, reader, origin, err);
    if (!program) {
      throw VariantError("program " + std::to_string(recorded.id) +
                         " has no source or IL in the trace (it was loaded from a binary), so "
                         "it cannot be rebuilt with other options; give its source with "
                         "--program-source or --kernel-source");
    }
  }
  const std::string options = code.build_options.value_or(recorded.build_options) + extra_options;
  const std::string failure = build_made_program(program, device, options);
  if (!failure.empty()) {
    throw VariantError(origin_of(code, recorded) + " does not build" +
                           (options.empty() ? "" : " with '" + options + "'") +
                           " on this device (" + failure.substr(0, failure.find(':')) +
                           "); its build log follows",
                       build_log_of(program.get(), device));
  }
  return program;
}

std::string arg_kind_text(const trace::KernelArg& arg) {
  switch (arg.kind) {
    case trace::ArgKind::Buffer:
      return "a buffer";
    case trace::ArgKind::Local:
      return "__local memory of " + std::to_string(arg.local_size) + " bytes";
    case trace::ArgKind::Bytes:
      return "a scalar of " + std::to_string(arg.bytes.size()) + " bytes";
    case trace::ArgKind::Sampler:
      return "a sampler";
    case trace::ArgKind::Null:
      return "a NULL buffer";
    case trace::ArgKind::Pointer:
      return "a pointer";
    case trace::ArgKind::Unset:
      return "nothing";
  }
  return "?";
}

// Why a new kernel does not take what the recorded launch passes, or "".
std::string arg_mismatch(const trace::KernelArg& arg, const trace::KernelArgInfo& info) {
  const auto q = static_cast<cl_kernel_arg_address_qualifier>(info.address_qualifier);
  const bool pointer = info.type_name.find('*') != std::string::npos;
  const bool memory = q == CL_KERNEL_ARG_ADDRESS_GLOBAL || q == CL_KERNEL_ARG_ADDRESS_CONSTANT;
  switch (arg.kind) {
    case trace::ArgKind::Buffer:
      if (!memory) return "is not a __global or __constant buffer";
      return "";
    case trace::ArgKind::Local:
      if (q != CL_KERNEL_ARG_ADDRESS_LOCAL) return "is not __local";
      return "";
    case trace::ArgKind::Bytes: {
      if (memory || q == CL_KERNEL_ARG_ADDRESS_LOCAL || pointer) return "is not a scalar";
      const ElementType t = element_type_of(info.type_name);
      if (t.kind != ElementType::Kind::Bytes && t.size != arg.bytes.size())
        return "is " + std::to_string(t.size) + " bytes";
      return "";
    }
    case trace::ArgKind::Sampler:
      if (info.type_name.find("sampler_t") == std::string::npos) return "is not a sampler_t";
      return "";
    case trace::ArgKind::Pointer:
      if (!memory || !pointer) return "is not a __global or __constant pointer";
      return "";
    case trace::ArgKind::Null:
    case trace::ArgKind::Unset:
      return "";
  }
  return "";
}

// The new kernel takes every argument the recorded launches pass, in kind
// and size; learnt from a twin built with -cl-kernel-arg-info, so the kernel
// measured is built exactly as asked.
void check_arguments(cl_context context, cl_device_id device, const CodeEdit& code,
                     const trace::Program& recorded, const trace::TraceReader& reader,
                     const std::string& kernel, const trace::Range& range,
                     const std::set<trace::CaptureId>& kernel_ids) {
  ClProgram twin = build_edit(context, device, code, recorded, reader, " -cl-kernel-arg-info");
  const auto info = kernel_arg_info(twin.get(), kernel);
  const std::string who = "kernel '" + kernel + "' of " + code.source_path;
  for (const auto& command : range.commands) {
    const auto* launch = std::get_if<trace::KernelLaunch>(&command.body);
    if (launch == nullptr || kernel_ids.count(launch->kernel) == 0) continue;
    std::uint32_t count = 0;
    for (const auto& arg : launch->args) count = std::max(count, arg.index + 1);
    if (info.empty()) return;  // the driver gives no argument information
    if (info.size() != count) {
      throw VariantError(who + " takes " + std::to_string(info.size()) +
                         " argument(s), the recorded launch passes " + std::to_string(count) +
                         "; the edit must take the recorded arguments");
    }
    for (const auto& arg : launch->args) {
      const auto& i = info.at(arg.index);
      const std::string why = arg_mismatch(arg, i);
      if (why.empty()) continue;
      throw VariantError(who + ": argument " + std::to_string(arg.index) + " ('" + i.name + "', " +
                         i.type_name + ") " + why + ", the recorded launch passes " +
                         arg_kind_text(arg) + "; the edit must take the recorded arguments");
    }
    return;  // launches of one kernel pass the same kinds
  }
}

ClKernel kernel_from(const ClProgram& program, const std::string& name, const std::string& origin) {
  cl_int err = CL_SUCCESS;
  ClKernel kernel(clCreateKernel(program.get(), name.c_str(), &err));
  if (err != CL_SUCCESS) {
    throw VariantError(origin + " has no kernel '" + name + "' (" + cl_error_name(err) +
                       "), which the range launches; name the kernel as the recording does");
  }
  return kernel;
}

}  // namespace

VariantCode build_variant(cl_context context, cl_device_id device, const Variant& variant,
                          const RangeCode& code, const trace::TraceReader& reader) {
  VariantCode out;
  // The range's kernels, by name and by program.
  std::map<std::string, std::set<trace::CaptureId>> by_name;
  std::map<trace::CaptureId, std::set<trace::CaptureId>> by_program;
  for (const auto& [id, k] : code.kernels) {
    by_name[k->name].insert(id);
    by_program[k->program].insert(id);
  }
  for (const auto& edit : variant.programs) {
    const auto p = code.programs.find(edit.program);
    if (p == code.programs.end()) continue;  // a program of another range
    // The program measured first: its build errors are the user's.
    ClProgram program = build_edit(context, device, edit.code, *p->second, reader);
    const std::string origin = origin_of(edit.code, *p->second);
    std::set<std::string> checked;
    for (const auto id : by_program[edit.program]) {
      const auto& name = code.kernels.at(id)->name;
      if (!edit.code.source_path.empty() && checked.insert(name).second)
        check_arguments(context, device, edit.code, *p->second, reader, name, code.range,
                        by_name[name]);
      out.kernels[id] = kernel_from(program, name, origin);
    }
    out.programs.push_back(std::move(program));
  }
  for (const auto& edit : variant.kernels) {
    const auto ids = by_name.find(edit.kernel);
    if (ids == by_name.end()) continue;  // a kernel of another range
    for (const auto id : ids->second) {
      if (edit.global_size || edit.local_size)
        out.sizes[id] = VariantCode::Sizes{edit.global_size, edit.local_size};
    }
    if (!edit.code.changes_code()) continue;
    // One build per recorded program the kernel's objects come from.
    std::map<trace::CaptureId, std::size_t> built;
    bool checked = false;
    for (const auto id : ids->second) {
      const trace::Program& recorded = *code.programs.at(code.kernels.at(id)->program);
      auto it = built.find(recorded.id);
      if (it == built.end()) {
        // The program measured first: its build errors are the user's.
        out.programs.push_back(build_edit(context, device, edit.code, recorded, reader));
        it = built.emplace(recorded.id, out.programs.size() - 1).first;
        if (!edit.code.source_path.empty() && !checked) {
          check_arguments(context, device, edit.code, recorded, reader, edit.kernel, code.range,
                          ids->second);
          checked = true;
        }
      }
      out.kernels[id] =
          kernel_from(out.programs[it->second], edit.kernel, origin_of(edit.code, recorded));
    }
  }
  return out;
}

}  // namespace msprof::replay::opencl
