#include <doctest/doctest.h>

#include <pthread.h>
#include <sched.h>

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "replayer/opencl/worker_thread_placement.h"

using namespace msprof::replay;
using namespace msprof::replay::opencl;

TEST_CASE("a thread allowed on one CPU only is counted as pinned, and not before") {
  const std::size_t before = observe_thread_pinning().pinned_threads;
  std::mutex mutex;
  std::condition_variable changed;
  bool pinned = false, done = false;
  bool set = false;
  std::thread worker([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(static_cast<int>(::sched_getcpu()), &one);
    std::unique_lock lock(mutex);
    set = ::pthread_setaffinity_np(::pthread_self(), sizeof one, &one) == 0;
    pinned = true;
    changed.notify_all();
    changed.wait(lock, [&] { return done; });
  });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return pinned; });
  }
  REQUIRE(set);
  CHECK(observe_thread_pinning().pinned_threads == before + 1);
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  changed.notify_all();
  worker.join();
}

TEST_CASE("the placement says what was observed, and why nothing was pinned") {
  CHECK(describe_thread_placement(ThreadControl::Pin, {4, true}) ==
        "4 worker threads pinned one per core");
  CHECK(describe_thread_placement(ThreadControl::None, {1, true}) ==
        "1 worker thread pinned one per core");
  CHECK(describe_thread_placement(ThreadControl::Pin, {0, true}).find("did not pin") !=
        std::string::npos);
  CHECK(describe_thread_placement(ThreadControl::None, {0, true}) ==
        "worker threads placed by the OS (thread control none)");
  // Restricted to some CPUs: never pinned, whatever a thread's mask says.
  CHECK(describe_thread_placement(ThreadControl::Pin, {6, false}).find("taskset or a cpuset") !=
        std::string::npos);
}

TEST_CASE("POCL_AFFINITY is read as PoCL reads it, and the user's value comes back") {
  const char* before = std::getenv("POCL_AFFINITY");
  const std::optional<std::string> saved =
      before ? std::optional<std::string>(before) : std::nullopt;
  ::unsetenv("POCL_AFFINITY");
  CHECK_FALSE(thread_control_from_environment().has_value());
  request_thread_control(ThreadControl::None);
  CHECK(thread_control_from_environment() == ThreadControl::None);
  request_thread_control(ThreadControl::Pin);
  // Asked for only where this process may use every CPU.
  CHECK(thread_control_from_environment() ==
        (may_use_every_cpu() ? ThreadControl::Pin : ThreadControl::None));
  for (const char* value : {"", "0", "yes", "true", "2"}) {
    ::setenv("POCL_AFFINITY", value, 1);
    CHECK(thread_control_from_environment() == ThreadControl::None);
  }
  ::setenv("POCL_AFFINITY", "1", 1);
  CHECK(thread_control_from_environment() == ThreadControl::Pin);
  if (saved) {
    ::setenv("POCL_AFFINITY", saved->c_str(), 1);
  } else {
    ::unsetenv("POCL_AFFINITY");
  }
}
