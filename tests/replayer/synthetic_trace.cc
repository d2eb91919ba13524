#include "tests/replayer/synthetic_trace.h"

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "format/hash128.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"

namespace msprof::test {

using namespace msprof::trace;
using namespace msprof::test::synthetic;

namespace {

constexpr const char* kSourcePart1 = R"CL(
__kernel void add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void scale(__global float* x, float s) {
  size_t i = get_global_id(0);
  x[i] = x[i] * s;
}
)CL";
constexpr const char* kSourcePart2 = R"CL(
__kernel void negate(__global const float* c, __global float* e, long offset) {
  size_t i = get_global_id(0);
  e[i + offset] = -c[i + offset];
}
__kernel void group_sum(__global const int* in, __global int* out, __local int* tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int s = 0;
    for (size_t i = 0; i < get_local_size(0); ++i) s += tmp[i];
    out[get_group_id(0)] = s;
  }
}
)CL";
constexpr const char* kBuildOptions = "-DUNUSED_FLAG=1";

template <typename T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

template <typename T>
std::vector<std::uint8_t> scalar_bytes(T value) {
  std::vector<std::uint8_t> out(sizeof value);
  std::memcpy(out.data(), &value, sizeof value);
  return out;
}

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<float> out(n);
  for (auto& v : out) v = dist(rng);
  return out;
}

struct LocalDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  DeviceInfo info;
};

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  clGetDeviceInfo(device, what, 0, nullptr, &size);
  std::string s(size, '\0');
  clGetDeviceInfo(device, what, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

LocalDevice local_device() {
  LocalDevice d;
  cl_uint count = 0;
  if (clGetPlatformIDs(1, &d.platform, &count) != CL_SUCCESS || count == 0 ||
      clGetDeviceIDs(d.platform, CL_DEVICE_TYPE_ALL, 1, &d.device, nullptr) != CL_SUCCESS) {
    throw std::runtime_error("no OpenCL device for the replayer tests");
  }
  char platform_name[256] = {};
  clGetPlatformInfo(d.platform, CL_PLATFORM_NAME, sizeof platform_name, platform_name, nullptr);
  d.info.platform_name = platform_name;
  d.info.device_name = device_string(d.device, CL_DEVICE_NAME);
  d.info.vendor = device_string(d.device, CL_DEVICE_VENDOR);
  d.info.driver_version = device_string(d.device, CL_DRIVER_VERSION);
  d.info.device_version = device_string(d.device, CL_DEVICE_VERSION);
  d.info.device_type = "CPU";
  cl_ulong mem = 0, cache = 0;
  clGetDeviceInfo(d.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, nullptr);
  clGetDeviceInfo(d.device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, nullptr);
  d.info.global_mem_bytes = mem;
  d.info.global_cache_bytes = cache;
  d.info.address_bits = 64;
  return d;
}

// What the local driver builds the program to, for built_binaries.
std::vector<std::byte> build_binary(const LocalDevice& d) {
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &d.device, nullptr, nullptr, &err);
  const char* sources[] = {kSourcePart1, kSourcePart2};
  cl_program program = clCreateProgramWithSource(context, 2, sources, nullptr, &err);
  err = clBuildProgram(program, 1, &d.device, kBuildOptions, nullptr, nullptr);
  std::size_t size = 0;
  clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  std::vector<std::byte> binary(size);
  unsigned char* target = reinterpret_cast<unsigned char*>(binary.data());
  clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof target, &target, nullptr);
  clReleaseProgram(program);
  clReleaseContext(context);
  if (err != CL_SUCCESS || size == 0) throw std::runtime_error("cannot build the test program");
  return binary;
}

class TraceBuilder {
 public:
  TraceBuilder(const std::filesystem::path& path, const SyntheticOptions& options)
      : options_(options), writer_(path, writer_options()) {}

  BlobRef blob(const std::vector<std::byte>& data) { return writer_.put_blob(data); }
  void write(const Record& record) { writer_.write(record); }
  void close() { writer_.close(); }
  void flush() { writer_.flush(); }

 private:
  static TraceWriter::Options writer_options() {
    TraceWriter::Options o;
    o.workers = 1;
    o.chunk_size = 1024;  // several chunks per buffer
    return o;
  }
  SyntheticOptions options_;
  TraceWriter writer_;
};

Command command(std::uint64_t seq, CaptureId queue, CaptureId event, std::vector<CaptureId> waits,
                CommandBody body, bool blocking = false) {
  Command c;
  c.seq = seq;
  c.queue = queue;
  c.event = event;
  c.wait_events = std::move(waits);
  c.blocking = blocking;
  c.host_time_ns = 1000 + seq;
  c.body = std::move(body);
  return c;
}

KernelArg buffer_arg(std::uint32_t index, CaptureId buffer) {
  return {index, ArgKind::Buffer, buffer, 0, {}, 0};
}

KernelLaunch launch(CaptureId kernel, std::size_t global, std::size_t local,
                    std::vector<KernelArg> args) {
  KernelLaunch k;
  k.kernel = kernel;
  k.work_dim = 1;
  k.global_size = {global};
  if (local != 0) k.local_size = {local};
  k.args = std::move(args);
  return k;
}

void write_records(TraceBuilder& out, const SyntheticOptions& options, const LocalDevice& device,
                   const std::vector<std::byte>& binary) {
  TraceInfo info;
  info.schema_version = kSchemaVersion;
  info.min_reader_version = kMinReaderVersion;
  info.tool_version = kToolVersion;
  info.created_unix_ns = 1'700'000'000'000'000'000ull;
  info.host = "testhost";
  info.command_line = {"python3", "synthetic.py"};
  info.pid = 4242;
  info.api = "opencl";
  info.options.final_state = options.final_state;
  info.devices = {device.info};
  if (!options.device_name.empty()) info.devices[0].device_name = options.device_name;
  out.write(info);
  out.write(Context{1, {0}});

  Program program;
  program.id = 2;
  program.context = 1;
  program.kind = ProgramKind::Source;
  program.sources = {kSourcePart1, kSourcePart2};
  program.build_options = kBuildOptions;
  program.devices = {0};
  if (!binary.empty()) program.built_binaries = {{0, out.blob(binary)}};
  out.write(program);
  const CaptureId add = 3, scale = 4, negate = 5, group_sum = 6;
  // Argument information as a driver gives it (clGetKernelArgInfo), which
  // tells verification the element types.
  const auto arg = [](std::string name, std::string type, bool local, bool is_const) {
    return KernelArgInfo{std::move(name), std::move(type),
                         static_cast<std::uint32_t>(local ? CL_KERNEL_ARG_ADDRESS_LOCAL
                                                          : CL_KERNEL_ARG_ADDRESS_GLOBAL),
                         CL_KERNEL_ARG_ACCESS_NONE,
                         is_const ? std::uint64_t{CL_KERNEL_ARG_TYPE_CONST} : 0};
  };
  out.write(Kernel{add,
                   2,
                   "add",
                   3,
                   {arg("a", "float*", false, true), arg("b", "float*", false, true),
                    arg("c", "float*", false, false)}});
  out.write(Kernel{
      scale, 2, "scale", 2, {arg("x", "float*", false, false), arg("s", "float", false, false)}});
  out.write(Kernel{negate,
                   2,
                   "negate",
                   3,
                   {arg("c", "float*", false, true), arg("e", "float*", false, false),
                    arg("offset", "long", false, false)}});
  out.write(Kernel{group_sum,
                   2,
                   "group_sum",
                   3,
                   {arg("in", "int*", false, true), arg("out", "int*", false, false),
                    arg("tmp", "int*", true, false)}});

  const std::uint64_t n = options.elements, bytes = n * 4;
  const auto root = [&](CaptureId id, std::uint64_t size, std::uint64_t flags) {
    out.write(Buffer{id, 1, flags, size, 0, 0, std::nullopt});
  };
  root(kBufferA, bytes, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  root(kBufferB, bytes, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR);
  root(kBufferC, bytes, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY);
  root(kBufferX, bytes, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR);
  root(kParent, 2 * bytes, CL_MEM_READ_WRITE);
  out.write(Buffer{kSubBuffer, 1, CL_MEM_READ_WRITE, bytes, kParent, bytes, std::nullopt});
  root(kInts, bytes, CL_MEM_READ_ONLY);
  root(kSums, n / kGroup * 4, CL_MEM_WRITE_ONLY);
  root(kBufferE, bytes, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
  const CaptureId q0 = 20, q1 = 21;
  out.write(Queue{q0, 1, 0, 0, false, false});
  out.write(Queue{q1, 1, 0, CL_QUEUE_PROFILING_ENABLE, false, true});

  // Contents, and what the kernels make of them, computed here.
  const auto a0 = random_floats(n, 1), a1 = random_floats(n, 2), b = random_floats(n, 3),
             c0 = random_floats(n, 4), x0 = random_floats(n, 5), p0 = random_floats(2 * n, 6),
             e0 = random_floats(n, 7);
  std::vector<std::int32_t> ints(n), sums0(n / kGroup, -1), sums(n / kGroup, 0);
  for (std::size_t i = 0; i < n; ++i) ints[i] = static_cast<std::int32_t>(i * 7 % 1000) - 300;
  std::vector<float> c(n), e(n), x(n), p = p0;
  for (std::size_t i = 0; i < n; ++i) {
    c[i] = a1[i] + b[i];
    e[i] = -c[i];
    x[i] = x0[i] * 2.0f;
    p[n + i] = c[i] * 3.0f;
    sums[i / kGroup] += ints[i];
  }
  if (options.wrong_final_state) e[7] = e[7] + 1.0f;
  if (options.wrong_int_final_state) sums[3] += 3;

  Range range1;
  range1.id = 30;
  range1.name = options.range1_name;
  range1.order = 0;
  range1.thread_id = 1;
  range1.start_ns = 100;
  range1.end_ns = 200;
  const float two = 2.0f, three = 3.0f;
  range1.commands = {
      command(0, q0, 100, {},
              BufferWrite{kBufferA, 0, bytes, out.blob(bytes_of(a1)), std::nullopt}),
      command(1, q0, 101, {}, BufferFill{kBufferC, {0, 0, 0, 0}, 0, bytes}),
      command(2, q0, 102, {100, 101},
              launch(add, n, kGroup,
                     {buffer_arg(0, kBufferA), buffer_arg(1, kBufferB), buffer_arg(2, kBufferC)})),
      command(
          3, q1, 103, {102},
          launch(
              // a zero 8-byte scalar, recorded as Null (pyopencl offsets)
              negate, n, 0,
              {buffer_arg(0, kBufferC), buffer_arg(1, kBufferE), {2, ArgKind::Null, 0, 0, {}, 0}})),
      command(4, q0, 104, {},
              launch(scale, n, kGroup,
                     {buffer_arg(0, kBufferX), {1, ArgKind::Bytes, 0, 0, scalar_bytes(two), 0}})),
      command(5, q0, 105, {102}, BufferCopy{kBufferC, kSubBuffer, 0, 0, bytes, std::nullopt}),
      command(6, q1, 106, {},
              launch(group_sum, n, kGroup,
                     {buffer_arg(0, kInts),
                      buffer_arg(1, kSums),
                      {2, ArgKind::Local, 0, 0, {}, kGroup * 4}})),
      command(
          7, q1, 107, {105},
          launch(scale, n, kGroup,
                 {buffer_arg(0, kSubBuffer), {1, ArgKind::Bytes, 0, 0, scalar_bytes(three), 0}})),
      command(8, q0, 108, {104}, Marker{}),
      command(9, q1, 109, {}, Barrier{}),
      command(10, q0, 110, {103}, BufferRead{kBufferC, 0, bytes, std::nullopt}, true),
      command(11, 0, 0, {}, HostWait{{107, 106, 108, 109}}),
  };
  range1.initial_state = {{kBufferA, out.blob(bytes_of(a0))}, {kBufferB, out.blob(bytes_of(b))},
                          {kBufferC, out.blob(bytes_of(c0))}, {kBufferX, out.blob(bytes_of(x0))},
                          {kParent, out.blob(bytes_of(p0))},  {kInts, out.blob(bytes_of(ints))},
                          {kSums, out.blob(bytes_of(sums0))}, {kBufferE, out.blob(bytes_of(e0))}};
  if (options.final_state) {
    range1.final_state = {{kBufferA, out.blob(bytes_of(a1))}, {kBufferB, out.blob(bytes_of(b))},
                          {kBufferC, out.blob(bytes_of(c))},  {kBufferX, out.blob(bytes_of(x))},
                          {kParent, out.blob(bytes_of(p))},   {kInts, out.blob(bytes_of(ints))},
                          {kSums, out.blob(bytes_of(sums))},  {kBufferE, out.blob(bytes_of(e))}};
  }
  // The original run: each kernel 2 us, 1 us after it was queued.
  for (std::uint64_t seq : {2, 3, 4, 6, 7}) {
    range1.timings.push_back(
        {seq, seq * 10000, seq * 10000 + 500, seq * 10000 + 1000, seq * 10000 + 3000});
  }
  range1.objects = {1,        2,        add,      scale,    negate,  group_sum,
                    kBufferA, kBufferB, kBufferC, kBufferX, kParent, kSubBuffer,
                    kInts,    kSums,    kBufferE, q0,       q1};
  out.write(range1);

  Range inplace;
  inplace.id = 31;
  inplace.name = "inplace";
  inplace.order = 1;
  inplace.commands = {
      command(0, q0, 0, {},
              launch(scale, n, kGroup,
                     {buffer_arg(0, kBufferX), {1, ArgKind::Bytes, 0, 0, scalar_bytes(two), 0}}))};
  inplace.initial_state = {{kBufferX, out.blob(bytes_of(x0))}};
  if (options.final_state) inplace.final_state = {{kBufferX, out.blob(bytes_of(x))}};
  inplace.objects = {1, 2, scale, kBufferX, q0};
  out.write(inplace);

  Range nested;
  nested.id = 32;
  nested.name = "nested";
  nested.order = 2;
  nested.status = RangeStatus::Ignored;
  nested.status_reason = "opened inside range1";
  out.write(nested);

  Range svm;
  svm.id = 33;
  svm.name = "svm";
  svm.order = 3;
  svm.status = RangeStatus::NotReplayable;
  svm.status_reason = "clEnqueueSVMMap";
  svm.commands = {inplace.commands.front()};
  svm.initial_state = inplace.initial_state;
  out.write(svm);

  if (!options.killed) {
    Range cut = inplace;
    cut.id = 34;
    cut.name = "cut";
    cut.order = 4;
    cut.status = RangeStatus::Truncated;
    cut.final_state.clear();
    out.write(cut);
  }
}

}  // namespace

void write_synthetic_trace(const std::filesystem::path& path, const SyntheticOptions& options) {
  // OpenCL is asked here, never in the child below: a driver's threads do
  // not survive fork().
  const LocalDevice device = local_device();
  const std::vector<std::byte> binary =
      options.with_binaries ? build_binary(device) : std::vector<std::byte>{};
  if (!options.killed) {
    TraceBuilder out(path, options);
    write_records(out, options, device, binary);
    out.close();
    return;
  }
  // A killed recorder never closes its trace: write it from a child that
  // ends without running any destructor.
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    try {
      TraceBuilder out(path, options);
      write_records(out, options, device, binary);
      out.flush();
      ::_exit(0);  // here, before the writer's destructor could close the trace
    } catch (...) {
    }
    ::_exit(1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error("the child writing the killed trace failed");
  }
}

int run_command(const std::string& command, std::string& out, std::string& err) {
  char out_name[] = "/tmp/msprof-replay-test-out-XXXXXX";
  char err_name[] = "/tmp/msprof-replay-test-err-XXXXXX";
  const int out_fd = ::mkstemp(out_name), err_fd = ::mkstemp(err_name);
  ::close(out_fd);
  ::close(err_fd);
  const int status = std::system((command + " >" + out_name + " 2>" + err_name).c_str());
  out = read_text(out_name);
  err = read_text(err_name);
  ::unlink(out_name);
  ::unlink(err_name);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace msprof::test
