#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "replayer/opencl/worker_thread_placement.h"

using namespace msprof::replay;
using namespace msprof::replay::opencl;

TEST_CASE("a /proc CPU list names one CPU only when it is a single number") {
  CHECK(names_one_cpu("0"));
  CHECK(names_one_cpu("17"));
  CHECK_FALSE(names_one_cpu("0-1"));
  CHECK_FALSE(names_one_cpu("0,2"));
  CHECK_FALSE(names_one_cpu("0-3,8-11"));
  CHECK_FALSE(names_one_cpu(""));
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
