#include "replayer/opencl/program_builder.h"

#include <vector>

#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_error.h"

namespace msprof::replay::opencl {

namespace {

std::string build_log(cl_program program, cl_device_id device) {
  std::string log = build_log_of(program, device);
  for (auto& ch : log) {
    if (ch == '\n') ch = ' ';
  }
  return log.size() > 300 ? log.substr(0, 300) + "..." : log;
}

// The binary for this device and driver, if the trace holds one.
const trace::ProgramBinary* matching_binary(const std::vector<trace::ProgramBinary>& binaries,
                                            const DeviceDescription& description,
                                            const trace::TraceInfo& info) {
  for (const auto& binary : binaries) {
    if (binary.device >= info.devices.size() || !binary.data.present()) continue;
    const auto& recorded = info.devices[binary.device];
    if (recorded.device_name == description.name && recorded.driver_version == description.driver) {
      return &binary;
    }
  }
  return nullptr;
}

ClProgram from_binary(cl_context context, cl_device_id device, const trace::ProgramBinary& binary,
                      const trace::TraceReader& reader) {
  const auto bytes = reader.read_blob(binary.data);
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t size = bytes.size();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  ClProgram program(clCreateProgramWithBinary(context, 1, &device, &size, &data, &status, &err));
  if (err != CL_SUCCESS || status != CL_SUCCESS) return {};
  return program;
}

// Empty message on success, else what the driver said.
std::string build(const ClProgram& program, cl_device_id device, const std::string& options) {
  const cl_int err = clBuildProgram(program.get(), 1, &device, options.c_str(), nullptr, nullptr);
  if (err == CL_SUCCESS) return "";
  const std::string log = build_log(program.get(), device);
  return cl_error_name(err) + (log.empty() ? "" : ": " + log);
}

}  // namespace

std::string build_log_of(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  if (size != 0)
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string build_made_program(const ClProgram& program, cl_device_id device,
                               const std::string& options) {
  return build(program, device, options);
}

ClProgram program_from_source_or_il(cl_context context, const trace::Program& program,
                                    const trace::TraceReader& reader, std::string& origin,
                                    cl_int& err) {
  err = CL_SUCCESS;
  if (!program.sources.empty()) {
    std::vector<const char*> strings;
    std::vector<std::size_t> lengths;
    for (const auto& s : program.sources) {
      strings.push_back(s.data());
      lengths.push_back(s.size());
    }
    origin = "source";
    return ClProgram(clCreateProgramWithSource(context, static_cast<cl_uint>(strings.size()),
                                               strings.data(), lengths.data(), &err));
  }
  if (program.il.present()) {
    const auto il = reader.read_blob(program.il);
    origin = "il";
    return ClProgram(clCreateProgramWithIL(context, il.data(), il.size(), &err));
  }
  return {};
}

BuiltProgram build_program(cl_context context, cl_device_id device,
                           const DeviceDescription& description, const trace::Program& program,
                           const trace::TraceInfo& info, const trace::TraceReader& reader,
                           bool rebuild) {
  BuiltProgram out;
  const std::string id = "program " + std::to_string(program.id);
  cl_int err = CL_SUCCESS;
  if (program.kind == trace::ProgramKind::BuiltIn) {
    out.program = ClProgram(
        clCreateProgramWithBuiltInKernels(context, 1, &device, program.kernel_names.c_str(), &err));
    cl_check(err, "clCreateProgramWithBuiltInKernels");
    out.origin = "builtin";
    return out;
  }
  const bool has_text = !program.sources.empty() || program.il.present();
  if (rebuild && !has_text) {
    out.note = id + ": --rebuild asked, but the trace holds only its binary; used that";
  }
  for (const auto* binaries : {&program.built_binaries, &program.given_binaries}) {
    if (rebuild && has_text) break;
    const auto* binary = matching_binary(*binaries, description, info);
    if (binary == nullptr) continue;
    ClProgram candidate = from_binary(context, device, *binary, reader);
    if (candidate && build(candidate, device, program.build_options).empty()) {
      out.program = std::move(candidate);
      out.origin = "binary";
      return out;
    }
    out.note = id + ": the recorded binary did not load; rebuilt it";
  }
  out.program = program_from_source_or_il(context, program, reader, out.origin, err);
  if (!out.program && err == CL_SUCCESS) {
    throw PlanError(id + " has neither source, IL nor a binary for '" + description.name +
                    "'; replay on the device it was recorded on");
  }
  cl_check(err, out.origin == "il" ? "clCreateProgramWithIL" : "clCreateProgramWithSource");
  const std::string failure = build(out.program, device, program.build_options);
  if (!failure.empty()) {
    throw DeviceError(id + " does not build from " + out.origin + " on '" + description.name +
                      "' (" + failure + "); replay on the device it was recorded on");
  }
  return out;
}

}  // namespace msprof::replay::opencl
