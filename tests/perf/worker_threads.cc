#include "tests/perf/worker_threads.h"

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace msprof::test {

WorkerThreads::WorkerThreads(std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) threads_.emplace_back([this] { work(); });
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return ids_.size() == count; });
}

WorkerThreads::~WorkerThreads() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  // A joined thread stays listed in /proc/self/task for a moment, and the
  // next case counts every thread listed.
  for (const pid_t id : ids_) {
    const std::string path = "/proc/self/task/" + std::to_string(id);
    for (int i = 0; i < 10000 && std::filesystem::exists(path); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
}

void WorkerThreads::run(const std::function<void()>& job) {
  std::unique_lock lock(mutex_);
  job_ = job;
  finished_ = 0;
  ++generation_;
  changed_.notify_all();
  changed_.wait(lock, [&] { return finished_ == threads_.size(); });
}

void WorkerThreads::work() {
  std::unique_lock lock(mutex_);
  ids_.push_back(::gettid());
  changed_.notify_all();
  unsigned long seen = generation_;
  while (true) {
    changed_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    const std::function<void()> job = job_;
    lock.unlock();
    job();
    lock.lock();
    ++finished_;
    changed_.notify_all();
  }
}

void touch_fresh_pages(std::size_t pages) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* memory =
      ::mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::runtime_error("mmap failed");
  // Huge pages would serve many pages with one fault.
  ::madvise(memory, pages * page, MADV_NOHUGEPAGE);
  auto* bytes = static_cast<volatile std::uint8_t*>(memory);
  for (std::size_t i = 0; i < pages; ++i) bytes[i * page] = 1;
  ::munmap(memory, pages * page);
}

void spin_cpu(unsigned milliseconds) {
  const auto cpu_ns = [] {
    timespec now{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
  };
  const std::int64_t until = cpu_ns() + static_cast<std::int64_t>(milliseconds) * 1'000'000;
  volatile std::uint64_t sink = 0;
  while (cpu_ns() < until) {
    for (int i = 0; i < 1000; ++i) sink = sink + static_cast<std::uint64_t>(i);
  }
}

}  // namespace msprof::test
