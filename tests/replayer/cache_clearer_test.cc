#include <doctest/doctest.h>

#include <string>

#include "replayer/core/host_cache_sweep.h"
#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_handle.h"
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
