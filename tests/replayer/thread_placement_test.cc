#include <doctest/doctest.h>

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
  CHECK(describe_thread_placement(ThreadControl::Pin, {4, false}) ==
        "4 worker threads pinned one per core");
  CHECK(describe_thread_placement(ThreadControl::None, {1, false}) ==
        "1 worker thread pinned one per core");
  CHECK(describe_thread_placement(ThreadControl::Pin, {0, false}).find("did not pin") !=
        std::string::npos);
  CHECK(describe_thread_placement(ThreadControl::None, {0, false}) ==
        "worker threads placed by the OS (thread control none)");
  CHECK(describe_thread_placement(ThreadControl::Pin, {6, true}) ==
        "every thread on the one CPU this process may use");
}

TEST_CASE("POCL_AFFINITY in the environment is what the user chose") {
  ::unsetenv("POCL_AFFINITY");
  CHECK_FALSE(thread_control_from_environment().has_value());
  request_thread_control(ThreadControl::None);
  CHECK(thread_control_from_environment() == ThreadControl::None);
  request_thread_control(ThreadControl::Pin);
  CHECK(thread_control_from_environment() == ThreadControl::Pin);
  ::setenv("POCL_AFFINITY", "", 1);
  CHECK_FALSE(thread_control_from_environment().has_value());
  ::unsetenv("POCL_AFFINITY");
}
