#include "tests/analyzer/example_trace.h"

#include <cmath>
#include <cstring>

#include "format/hash128.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"

namespace msprof::test {

using namespace msprof::trace;

namespace {

constexpr std::size_t kN = 16;
constexpr std::uint32_t kGlobalQualifier = 0x119B;
constexpr std::uint32_t kPrivateQualifier = 0x119E;

std::vector<std::byte> bytes_of(const std::vector<float>& v) {
  std::vector<std::byte> out(v.size() * sizeof(float));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<std::uint8_t> scalar(float v) {
  std::vector<std::uint8_t> out(4);
  std::memcpy(out.data(), &v, 4);
  return out;
}

std::vector<std::uint8_t> scalar(std::int64_t v) {
  std::vector<std::uint8_t> out(8);
  std::memcpy(out.data(), &v, 8);
  return out;
}

KernelArg buffer_arg(std::uint32_t index, CaptureId buffer) {
  return {index, ArgKind::Buffer, buffer, 0, {}, 0};
}
KernelArg bytes_arg(std::uint32_t index, std::vector<std::uint8_t> bytes) {
  return {index, ArgKind::Bytes, 0, 0, std::move(bytes), 0};
}

KernelLaunch launch(CaptureId kernel, std::vector<KernelArg> args) {
  return {kernel, 1, {}, {kN}, {}, std::move(args), {}};
}

Kernel kernel(CaptureId id, const std::string& name, std::vector<KernelArgInfo> args) {
  return {id, 2, name, static_cast<std::uint32_t>(args.size()), std::move(args)};
}

KernelArgInfo global(const std::string& name) {
  return {name, "float*", kGlobalQualifier, 0, 0};
}
KernelArgInfo value(const std::string& name, const std::string& type) {
  return {name, type, kPrivateQualifier, 0, 0};
}

}  // namespace

ExampleTrace make_example_records() {
  ExampleTrace e;
  for (std::size_t i = 0; i < kN; ++i) {
    e.a.push_back(static_cast<float>(i + 1));
    e.b.push_back(-0.5f * static_cast<float>(i));
  }
  for (std::size_t i = 0; i < kN; ++i) {
    e.sum.push_back(2.0f * e.a[i] + e.b[i]);
    e.product.push_back(e.sum[i] * e.a[i]);
    e.quotient.push_back(std::fabs(e.product[i] / e.a[i]));
  }
  const std::string binary = "POCL-BINARY-axpbyz-multiply-divide-fabs";
  std::vector<std::byte> binary_bytes(binary.size());
  std::memcpy(binary_bytes.data(), binary.data(), binary.size());
  // The sum, an intermediate no state holds, equals the quotient: the
  // writer stores it once.
  e.blobs = {bytes_of(e.a),
             bytes_of(e.b),
             bytes_of(e.sum),
             bytes_of(e.product),
             bytes_of(e.quotient),
             binary_bytes,
             std::vector<std::byte>(kN * 4, std::byte{0})};
  const auto ref = [&](std::size_t i) { return BlobRef{hash128(e.blobs[i]), e.blobs[i].size()}; };
  const BlobRef a = ref(0), b = ref(1), product = ref(3), quotient = ref(4), built = ref(5),
                zeros = ref(6);

  TraceInfo info;
  info.schema_version = kSchemaVersion;
  info.min_reader_version = kMinReaderVersion;
  info.tool_version = "0.1.0";
  info.created_unix_ns = 1'796'221'700'000'000'000ull;
  info.host = "examplehost";
  info.command_line = {"python3", "examples/opencl_ranges.py"};
  info.pid = 31337;
  info.api = "opencl";
  DeviceInfo dev;
  dev.platform_name = "Portable Computing Language";
  dev.platform_version = "OpenCL 3.0 PoCL 3.1";
  dev.device_name = "cpu-haswell-Intel(R) Xeon(R) CPU";
  dev.vendor = "GenuineIntel";
  dev.driver_version = "3.1";
  dev.device_version = "OpenCL 3.0 PoCL HSTR: cpu";
  dev.device_type = "CPU";
  dev.compute_units = 2;
  dev.global_mem_bytes = 4ull << 30;
  dev.local_mem_bytes = 1ull << 20;
  dev.global_cache_bytes = 32ull << 20;
  dev.cacheline_bytes = 64;
  dev.max_clock_mhz = 2200;
  dev.max_work_group_size = 4096;
  dev.address_bits = 64;
  info.devices = {dev};
  e.records.push_back(info);

  e.records.push_back(Context{1, {0}});
  Program program;
  program.id = 2;
  program.context = 1;
  program.sources = {
      "__kernel void axpbyz(float a, __global const float* x, float b, __global const float* y,\n"
      "                     __global float* z) { int i = get_global_id(0); z[i] = a*x[i] + b*y[i]; "
      "}\n",
      "__kernel void multiply(__global const float* x, __global const float* y, __global float* z)"
      " { int i = get_global_id(0); z[i] = x[i] * y[i]; }\n"
      "__kernel void divide(__global const float* x, __global const float* y, __global float* z)"
      " { int i = get_global_id(0); z[i] = x[i] / y[i]; }\n"
      "__kernel void fabs_kernel(__global float* z, long n) { int i = get_global_id(0);"
      " if (i < n) z[i] = fabs(z[i]); }\n"};
  program.build_options = "-cl-std=CL1.2";
  program.built_binaries = {{0, built}};
  program.devices = {0};
  e.records.push_back(program);
  e.records.push_back(
      kernel(3, "axpbyz",
             {value("a", "float"), global("x"), value("b", "float"), global("y"), global("z")}));
  e.records.push_back(kernel(4, "multiply", {global("x"), global("y"), global("z")}));
  e.records.push_back(kernel(5, "divide", {global("x"), global("y"), global("z")}));
  e.records.push_back(kernel(6, "fabs_kernel", {global("z"), value("n", "long")}));
  e.records.push_back(
      Buffer{7, 1, 0x1 | 0x20, kN * 4, 0, 0, std::nullopt});  // read-write, copy-host-ptr
  e.records.push_back(Buffer{8, 1, 0x4 | 0x20, kN * 4, 0, 0, std::nullopt});  // read-only
  e.records.push_back(Buffer{9, 1, 0x2, kN * 4, 0, 0, std::nullopt});         // write-only
  e.records.push_back(Queue{10, 1, 0, 0x2, false, false});

  Range range1;
  range1.id = 11;
  range1.name = "range1";
  range1.order = 0;
  range1.thread_id = 1001;
  range1.start_ns = 5'000'000;
  range1.end_ns = 5'180'000;
  range1.commands = {
      {0, 10, 21, {}, false, 5'010'000, BufferWrite{7, 0, kN * 4, a, std::nullopt}},
      {1,
       10,
       22,
       {21},
       false,
       5'020'000,
       launch(3, {bytes_arg(0, scalar(2.0f)), buffer_arg(1, 7), bytes_arg(2, scalar(1.0f)),
                  buffer_arg(3, 8), buffer_arg(4, 9)})},
      {2,
       10,
       23,
       {22},
       false,
       5'030'000,
       launch(4, {buffer_arg(0, 9), buffer_arg(1, 7), buffer_arg(2, 9)})},
      {3, 10, 0, {23}, true, 5'040'000, BufferRead{9, 0, kN * 4, std::nullopt}},
  };
  range1.initial_state = {{7, a}, {8, b}, {9, zeros}};
  range1.final_state = {{7, a}, {8, b}, {9, product}};
  range1.timings = {{0, 900'000'000, 900'001'000, 900'002'000, 900'004'000},
                    {1, 900'005'000, 900'006'000, 900'010'000, 900'022'500},
                    {2, 900'023'000, 900'024'000, 900'025'000, 900'033'000},
                    {3, 900'034'000, 900'034'500, 900'035'000, 900'037'000}};
  range1.objects = {1, 2, 3, 4, 7, 8, 9, 10};
  e.records.push_back(range1);

  Range range2;
  range2.id = 12;
  range2.name = "range2";
  range2.order = 1;
  range2.thread_id = 1001;
  range2.start_ns = 5'300'000;
  range2.end_ns = 5'420'000;
  range2.commands = {
      {0,
       10,
       31,
       {},
       false,
       5'310'000,
       launch(5, {buffer_arg(0, 9), buffer_arg(1, 7), buffer_arg(2, 9)})},
      {1,
       10,
       32,
       {31},
       false,
       5'320'000,
       launch(6, {buffer_arg(0, 9), bytes_arg(1, scalar(std::int64_t{16}))})},
      {2, 0, 0, {}, true, 5'330'000, HostWait{{32}}},
  };
  range2.initial_state = {{7, a}, {9, product}};
  range2.final_state = {{7, a}, {9, quotient}};
  range2.timings = {{0, 900'300'000, 900'301'000, 900'302'000, 900'311'000},
                    {1, 900'312'000, 900'313'000, 900'314'000, 900'318'000}};
  range2.objects = {1, 2, 5, 6, 7, 9, 10};
  e.records.push_back(range2);

  Range nested;
  nested.id = 13;
  nested.name = "nested";
  nested.order = 2;
  nested.thread_id = 1001;
  nested.start_ns = 5'350'000;
  nested.end_ns = 5'350'000;
  nested.status = RangeStatus::Ignored;
  nested.status_reason = "opened inside range2";
  e.records.push_back(nested);

  Range svm;
  svm.id = 14;
  svm.name = "svm";
  svm.order = 3;
  svm.thread_id = 1001;
  svm.start_ns = 5'500'000;
  svm.end_ns = 5'600'000;
  svm.status = RangeStatus::NotReplayable;
  svm.status_reason = "clEnqueueSVMMap";
  svm.commands = {{0,
                   10,
                   41,
                   {},
                   false,
                   5'510'000,
                   launch(4, {buffer_arg(0, 7), buffer_arg(1, 7), buffer_arg(2, 9)})}};
  svm.initial_state = {{7, a}, {9, quotient}};
  svm.final_state = {{7, a}, {9, quotient}};
  svm.objects = {1, 2, 4, 7, 9, 10};
  e.records.push_back(svm);

  Range tail;
  tail.id = 15;
  tail.name = "tail";
  tail.order = 4;
  tail.thread_id = 1002;
  tail.start_ns = 5'700'000;
  tail.end_ns = 5'800'000;
  tail.status = RangeStatus::Truncated;
  tail.commands = {{0,
                    10,
                    51,
                    {},
                    false,
                    5'710'000,
                    launch(6, {buffer_arg(0, 8), bytes_arg(1, scalar(std::int64_t{16}))})}};
  tail.initial_state = {{8, b}};
  tail.objects = {1, 2, 6, 8, 10};
  e.records.push_back(tail);
  return e;
}

ExampleTrace write_example_trace(const std::filesystem::path& path) {
  ExampleTrace e = make_example_records();
  TraceWriter::Options options;
  options.workers = 1;
  TraceWriter writer(path, options);
  for (const auto& blob : e.blobs) writer.put_blob(blob);
  for (const auto& record : e.records) writer.write(record);
  writer.close();
  return e;
}

}  // namespace msprof::test
