// Replay pass overhead and fidelity on a 64 MiB trace.
//
// Runs two kernels natively (the "original program", timed with OpenCL
// profiling), writes what they did as a trace, replays it with
// ReplaySession, and checks the targets:
//   - pass overhead (restore + wall - sum of kernel times) <= 1.5x a host
//     memcpy of the restored bytes, replayed without cache clearing;
//   - replayed median duration within 15% of the native one for kernels
//     > 1 ms, over alternating rounds, under the same cache state: the
//     default cache clearing against native runs whose cache was emptied
//     the replayer's way first (their buffers' lines evicted on a device in
//     host memory, a sweep elsewhere) (--cache-control none against
//     native runs back to back is printed, not judged).
// Both sides run in this process, so a CPU device's worker threads are
// placed the same way for them: pinned one per core as msprof-replay does by
// default, or left to the OS with --thread-control none.
// Usage: msprof_replay_pass_bench [--thread-control pin|none] [DIR]
//        (default: pin, a temporary folder)
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/replay/add_scale_trace.h"
#include "format/trace_reader.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"
#include "replayer/core/host/cache_clearer.h"
#include "replayer/core/host/host_line_flush.h"
#include "replayer/core/plan/range_selection.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/results/statistics.h"
#include "replayer/core/session/replay_session.h"
#include "replayer/opencl/host_memory_buffer.h"
#include "replayer/opencl/opencl_device.h"
#include "replayer/opencl/opencl_device_list.h"
#include "replayer/opencl/worker_thread_placement.h"

using namespace msprof;
namespace opencl = msprof::replay::opencl;

namespace {

constexpr std::size_t kElements = 4u << 20;  // 16 MiB of float per buffer, four buffers

std::vector<std::byte> as_bytes(const std::vector<float>& v) {
  std::vector<std::byte> out(v.size() * 4);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

// How a native run empties the caches before each of its runs, as a replay
// pass starts: the way the replayer clears them on this device. Neither
// set (the default): not at all.
struct NativeClear {
  // The range's own lines (a device in host memory): the native buffers are
  // then made over host memory of ours too, so they can be evicted.
  bool evict_lines = false;
  replay::CacheClearer* sweep = nullptr;  // otherwise
};

// Runs the kernels natively and returns their device durations (ns). With
// `clear` set, the caches are emptied before every run; without, each run
// finds what the one before left.
std::vector<std::uint64_t> original_run(cl_device_id device, const std::vector<float>& a,
                                        const std::vector<float>& b, const std::vector<float>& x,
                                        NativeClear clear = {}) {
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
  const std::size_t bytes = kElements * 4;
  replay::HostLineFlush lines;
  std::vector<opencl::ClMem> held;
  const auto make = [&](cl_mem_flags flags, const std::vector<float>* init) {
    if (clear.evict_lines) {
      auto buffer = opencl::create_host_memory_buffer(ctx, flags, bytes);
      lines.add(buffer.bytes);
      if (init != nullptr)
        clEnqueueWriteBuffer(q, buffer.mem.get(), CL_TRUE, 0, bytes, init->data(), 0, nullptr,
                             nullptr);
      held.push_back(std::move(buffer.mem));
    } else {
      held.emplace_back(clCreateBuffer(ctx, flags | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                                       init ? const_cast<float*>(init->data()) : nullptr, &err));
    }
    return held.back().get();
  };
  cl_mem ma = make(CL_MEM_READ_ONLY, &a);
  cl_mem mb = make(CL_MEM_READ_ONLY, &b);
  cl_mem mc = make(CL_MEM_READ_WRITE, nullptr);
  cl_mem mx = make(CL_MEM_READ_WRITE, &x);
  const char* source = bench::kAddScaleSource;
  cl_program program = clCreateProgramWithSource(ctx, 1, &source, nullptr, &err);
  clBuildProgram(program, 1, &device, "", nullptr, nullptr);
  cl_kernel add = clCreateKernel(program, "add", &err),
            scale = clCreateKernel(program, "scale", &err);
  clSetKernelArg(add, 0, sizeof ma, &ma);
  clSetKernelArg(add, 1, sizeof mb, &mb);
  clSetKernelArg(add, 2, sizeof mc, &mc);
  const float two = 2.0f;
  clSetKernelArg(scale, 0, sizeof mx, &mx);
  clSetKernelArg(scale, 1, sizeof two, &two);
  const std::size_t global = kElements, local = 64;
  // Several runs, the median of each kernel's duration: the first launch pays
  // for the driver's lazy compilation and first-touch page faults, and this
  // machine is shared, so one run says little.
  constexpr int kRuns = 7;
  std::vector<std::vector<std::uint64_t>> runs(2);
  for (int run = 0; run < kRuns; ++run) {
    cl_event events[2];
    if (clear.evict_lines) lines.clear();
    if (clear.sweep != nullptr) clear.sweep->clear();
    clEnqueueNDRangeKernel(q, add, 1, nullptr, &global, &local, 0, nullptr, &events[0]);
    clEnqueueNDRangeKernel(q, scale, 1, nullptr, &global, &local, 0, nullptr, &events[1]);
    clFinish(q);
    for (int k = 0; k < 2; ++k) {
      cl_ulong start = 0, end = 0;
      clGetEventProfilingInfo(events[k], CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
      clGetEventProfilingInfo(events[k], CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
      if (run > 0) runs[k].push_back(end - start);
      clReleaseEvent(events[k]);
    }
  }
  std::vector<std::uint64_t> durations;
  for (auto& r : runs) {
    std::sort(r.begin(), r.end());
    durations.push_back(r[r.size() / 2]);
  }
  for (auto k : {add, scale}) clReleaseKernel(k);
  clReleaseProgram(program);
  held.clear();
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return durations;
}

void write_trace(const std::filesystem::path& path, const opencl::OpenClDeviceEntry& device,
                 const std::vector<std::uint64_t>& original) {
  std::vector<float> a(kElements), b(kElements), x(kElements), c(kElements), x2(kElements);
  for (std::size_t i = 0; i < kElements; ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.5f;
    b[i] = static_cast<float>(i % 777) - 300.0f;
    x[i] = static_cast<float>(i % 333) * 0.25f;
    c[i] = a[i] + b[i];
    x2[i] = x[i] * 2.0f;
  }
  trace::TraceWriter writer(path);
  trace::DeviceInfo d;
  d.device_name = device.description.name;
  d.driver_version = device.description.driver;
  bench::write_add_scale_objects(writer, d, kElements * 4);
  const auto arg = [](std::uint32_t i, trace::CaptureId b) {
    return trace::KernelArg{i, trace::ArgKind::Buffer, b, 0, {}, 0};
  };
  trace::KernelLaunch add{3, 1, {}, {kElements}, {64}, {arg(0, 10), arg(1, 11), arg(2, 12)}, {}};
  std::vector<std::uint8_t> two(4);
  const float two_f = 2.0f;
  std::memcpy(two.data(), &two_f, 4);
  trace::KernelLaunch scale{
      4, 1, {}, {kElements}, {64}, {arg(0, 13), {1, trace::ArgKind::Bytes, 0, 0, two, 0}}, {}};
  trace::Range range;
  range.id = 30;
  range.name = "bench";
  range.commands = {{0, 20, 0, {}, false, 0, add}, {1, 20, 0, {}, false, 0, scale}};
  const auto ra = writer.put_blob(as_bytes(a)), rb = writer.put_blob(as_bytes(b)),
             rc0 = writer.put_blob(as_bytes(std::vector<float>(kElements, -1.0f))),
             rx = writer.put_blob(as_bytes(x));
  range.initial_state = {{10, ra}, {11, rb}, {12, rc0}, {13, rx}};
  range.final_state = {
      {10, ra}, {11, rb}, {12, writer.put_blob(as_bytes(c))}, {13, writer.put_blob(as_bytes(x2))}};
  range.timings = {{0, 0, 0, 1000, 1000 + original[0]}, {1, 0, 0, 1000, 1000 + original[1]}};
  writer.write(range);
  writer.close();
}

double memcpy_us(std::uint64_t bytes) {
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), bytes);
    times.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[2];
}

}  // namespace

int main(int argc, char** argv) {
  try {
    auto threads = replay::ThreadControl::Pin;
    std::filesystem::path dir = std::filesystem::temp_directory_path();
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--thread-control" && i + 1 < argc) {
        const std::string value = argv[++i];
        if (value != "pin" && value != "none") {
          std::fprintf(stderr, "msprof_replay_pass_bench: --thread-control is pin or none\n");
          return 2;
        }
        threads = value == "pin" ? replay::ThreadControl::Pin : replay::ThreadControl::None;
      } else {
        dir = arg;
      }
    }
    const auto path = dir / "msprof_replay_bench.fb";
    opencl::request_thread_control(threads);
    const auto devices = opencl::list_opencl_devices();
    if (devices.empty()) {
      std::fprintf(stderr, "no OpenCL device\n");
      return 1;
    }
    std::vector<float> a(kElements), b(kElements), x(kElements);
    for (std::size_t i = 0; i < kElements; ++i) {
      a[i] = static_cast<float>(i % 1000) * 0.5f;
      b[i] = static_cast<float>(i % 777) - 300.0f;
      x[i] = static_cast<float>(i % 333) * 0.25f;
    }
    const auto original = original_run(devices[0].device, a, b, x);
    write_trace(path, devices[0], original);

    const trace::TraceReader reader(path);
    const replay::TraceCatalog catalog(reader);
    opencl::OpenClDevice device(devices[0]);
    replay::ReplayOptions options;
    options.launch_count = 10;
    options.cache_control = replay::CacheControl::None;
    replay::ReplaySession session(reader, catalog, device, options);
    const auto result = session.run(replay::select_ranges(catalog.ranges(), {}, path.string()));
    const auto& r = result.ranges.at(0);
    const double copy_us = memcpy_us(r.restored_bytes);
    const double overhead = r.restore_us.median + r.wall_us.median - r.kernel_sum_us.median;
    bool ok = r.verification.status == replay::VerificationStatus::BitExact;
    if (const auto placement = device.thread_placement(threads); !placement.empty())
      std::printf("device threads: %s\n", placement.c_str());
    std::printf("trace %.0f MiB, restored %.0f MiB per pass, verification %s\n",
                4.0 * kElements * 4 / (1 << 20), static_cast<double>(r.restored_bytes) / (1 << 20),
                std::string(replay::verification_status_name(r.verification.status)).c_str());
    std::printf("pass (median): wall %.0f us, kernels %.0f us, restore %.0f us\n", r.wall_us.median,
                r.kernel_sum_us.median, r.restore_us.median);
    std::printf(
        "overhead %.0f us = %.2fx memcpy of the restored bytes (%.0f us); target <= 1.5x: %s\n",
        overhead, overhead / copy_us, copy_us, overhead <= 1.5 * copy_us ? "ok" : "MISSED");
    ok = ok && overhead <= 1.5 * copy_us;
    // Kernel fidelity: a replayed kernel against the same kernel run
    // natively under the same cache state, cleared or not. Native runs and
    // replays alternate over rounds and the per-round ratios' median is
    // judged: on a shared host a burst of other work moves one phase's
    // median by up to a half, so one native phase against one replay says
    // little.
    options.cache_control = replay::CacheControl::All;
    const auto request = replay::ReplaySession::cache_clear_request(device.description(), options);
    NativeClear native_clear{device.evicts_lines(request), nullptr};
    if (!native_clear.evict_lines)
      native_clear.sweep = &device.cache_clearer(request.scratch_bytes);
    const std::string clear_method =
        native_clear.evict_lines ? replay::HostLineFlush::describe() : native_clear.sweep->method();
    constexpr int kRounds = 5;
    struct Fidelity {
      std::vector<double> native_us, replayed_us, ratios;
    };
    // [kernel][0]: cache cleared, [kernel][1]: not.
    std::vector<std::array<Fidelity, 2>> fidelity(r.kernels.size());
    for (int round = 0; round < kRounds; ++round) {
      const auto cold = original_run(devices[0].device, a, b, x, native_clear);
      const auto warm = round == 0 ? original : original_run(devices[0].device, a, b, x);
      for (const bool cleared : {true, false}) {
        options.cache_control = cleared ? replay::CacheControl::All : replay::CacheControl::None;
        replay::ReplaySession session_k(reader, catalog, device, options);
        const auto replayed =
            session_k.run(replay::select_ranges(catalog.ranges(), {}, path.string()));
        const auto& c = replayed.ranges.at(0);
        const auto& native = cleared ? cold : warm;
        for (std::size_t i = 0; i < r.kernels.size() && i < c.kernels.size(); ++i) {
          Fidelity& f = fidelity[i][cleared ? 0 : 1];
          const double native_k = static_cast<double>(native.at(i)) / 1e3;
          f.native_us.push_back(native_k);
          f.replayed_us.push_back(c.kernels[i].duration_us.median);
          f.ratios.push_back(c.kernels[i].duration_us.median / native_k);
        }
      }
    }
    std::printf(
        "kernels, medians over %d rounds of native runs and replays (%s before every cleared "
        "one):\n",
        kRounds, clear_method.c_str());
    for (std::size_t i = 0; i < r.kernels.size(); ++i) {
      for (const int mode : {0, 1}) {
        const Fidelity& f = fidelity[i][mode];
        const double native_k = replay::summarize(f.native_us).median;
        const double ratio = replay::summarize(f.ratios).median;
        const bool long_kernel = native_k > 1000;
        const bool close = std::abs(ratio - 1) <= 0.15;
        std::printf(
            "kernel %-6s %-13s native %.0f us, replayed median %.0f us, ratio %.2f (rounds:",
            r.kernels[i].name.c_str(), mode == 0 ? "cache cleared" : "cache as left", native_k,
            replay::summarize(f.replayed_us).median, ratio);
        for (double v : f.ratios) std::printf(" %.2f", v);
        // Judged cleared only, as the figure is: with the cache as
        // left, a replay pass finds what its restore wrote, a native run
        // what the run before it wrote, so the two start from different
        // states.
        const bool judged = long_kernel && mode == 0;
        std::printf(")%s\n", judged      ? (close ? " within 15%: ok" : " within 15%: MISSED")
                             : mode == 1 ? " (not judged)"
                                         : "");
        if (judged) ok = ok && close;
      }
    }
    std::filesystem::remove(path);
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "msprof_replay_pass_bench: %s\n", e.what());
    return 1;
  }
}
