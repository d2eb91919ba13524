#include <doctest/doctest.h>

#include <string>

#include "replayer/core/host/host_block.h"
#include "replayer/core/host/host_cache_sweep.h"
#include "replayer/core/host/host_line_flush.h"
#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/cl_handle.h"
#include "replayer/opencl/host_memory_buffer.h"
#include "replayer/opencl/kernel_cache_flusher.h"
#include "replayer/opencl/opencl_device_list.h"

using namespace msprof::replay;

TEST_CASE("a host sweep reads a whole-word scratch from the threads asked for") {
  for (unsigned threads : {0u, 1u, 3u}) {
    HostCacheSweep sweep((3u << 20) + 5, threads);
    CHECK(sweep.scratch_bytes() == (3u << 20));
    CHECK(sweep.threads() == std::max(threads, 1u));
    // A slice past the end of the mapping would fault here; uneven slices too.
    sweep.clear();
    sweep.clear();
  }
  CHECK(HostCacheSweep(100, 2).scratch_bytes() == 4096);
  CHECK(HostCacheSweep(96u << 20, 2).method() ==
        "read 96 MiB from 2 host threads (the device shares the host's caches)");
  CHECK(HostCacheSweep(1u << 20, 1).method() ==
        "read 1 MiB from 1 host thread (the device shares the host's caches)");
}

TEST_CASE("a scratch the machine cannot give is a device error naming the ways out") {
  try {
    HostCacheSweep sweep(1ull << 62, 2);
    FAIL("an exabyte scratch was allocated");
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    CHECK(what.find("cannot allocate the") == 0);
    CHECK(what.find("--cache-size") != std::string::npos);
    CHECK(what.find("--cache-control none") != std::string::npos);
  }
}

TEST_CASE("the kernel flusher, the way for devices with caches of their own, runs on the device") {
  const auto devices = opencl::list_opencl_devices();
  REQUIRE_FALSE(devices.empty());
  const auto& entry = devices.front();
  cl_int err = CL_SUCCESS;
  opencl::ClContext context(clCreateContext(nullptr, 1, &entry.device, nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  opencl::KernelCacheFlusher flusher(context.get(), entry.device, (1u << 20) + 3);
  CHECK(flusher.scratch_bytes() == (1u << 20));
  CHECK(flusher.method() == "read 1 MiB in a device kernel");
  flusher.clear();
  flusher.clear();
}

TEST_CASE("a line flush evicts every region it was given, whatever their alignment") {
  REQUIRE(HostLineFlush::available());
  HostBlock block((1u << 20) + 100);
  CHECK(reinterpret_cast<std::uintptr_t>(block.data()) % HostBlock::kAlignment == 0);
  CHECK(block.size() == (1u << 20) + 100);
  // The memory is there and zeroed, to its last byte.
  CHECK(block.data()[block.size() - 1] == std::byte{0});
  HostLineFlush flush;
  CHECK(flush.scratch_bytes() == 0);
  flush.clear();                               // nothing to evict: only the fence
  flush.add(block.bytes().subspan(3, 1000));   // starts inside a line
  flush.add(block.bytes().subspan(1u << 19));  // ends inside a line
  flush.add(block.bytes().subspan(0, 0));      // ignored
  CHECK(flush.scratch_bytes() == 1000 + (1u << 20) + 100 - (1u << 19));
  block.data()[5] = std::byte{7};
  flush.clear();
  // Eviction writes dirty lines back; it never changes what memory holds.
  CHECK(block.data()[5] == std::byte{7});
  CHECK(flush.method() == HostLineFlush::describe());
  CHECK(flush.method().find("line by line (CLFLUSH") != std::string::npos);
}

TEST_CASE("PoCL works in place on host memory given to it, which makes its lines evictable") {
  const auto devices = opencl::list_opencl_devices();
  REQUIRE_FALSE(devices.empty());
  const auto& entry = devices.front();
  REQUIRE(entry.shares_host_caches);
  cl_int err = CL_SUCCESS;
  opencl::ClContext context(clCreateContext(nullptr, 1, &entry.device, nullptr, nullptr, &err));
  REQUIRE(err == CL_SUCCESS);
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, 0, 0};
  opencl::ClQueue queue(
      clCreateCommandQueueWithProperties(context.get(), entry.device, properties, &err));
  REQUIRE(err == CL_SUCCESS);
  CHECK(opencl::works_in_host_memory(context.get(), entry.device, queue.get()));

  // A buffer of ours: what the device writes is in the bytes the flush evicts.
  auto buffer = opencl::create_host_memory_buffer(context.get(), CL_MEM_READ_WRITE, 10000);
  CHECK(buffer.bytes.size() == 10000);
  const cl_uchar value = 0x3C;
  opencl::cl_check(
      clEnqueueFillBuffer(queue.get(), buffer.mem.get(), &value, 1, 0, 10000, 0, nullptr, nullptr),
      "clEnqueueFillBuffer");
  opencl::cl_check(clFinish(queue.get()), "clFinish");
  CHECK(buffer.bytes[9999] == std::byte{0x3C});
  // The memory is the driver's to free once it destroys the buffer.
  buffer.mem.reset();
}
