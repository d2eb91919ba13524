#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace msprof::test {

// Threads that stand in for a CPU device's workers: started before the
// counting begins, blocked while no job runs, each running the job it is
// given when asked.
class WorkerThreads {
 public:
  explicit WorkerThreads(std::size_t count);
  ~WorkerThreads();
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;

  // Runs `job` once on every worker; returns when each has finished it.
  void run(const std::function<void()>& job);
  const std::vector<pid_t>& ids() const { return ids_; }

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;
  unsigned long generation_ = 0;
  std::size_t finished_ = 0;
  bool stopping_ = false;
  std::vector<pid_t> ids_;
  std::vector<std::thread> threads_;
};

// Writes a byte to each of `pages` pages of a new anonymous mapping (small
// pages: one page fault each), then unmaps it.
void touch_fresh_pages(std::size_t pages);

// Runs on the CPU until the calling thread has used `milliseconds` of CPU
// time.
void spin_cpu(unsigned milliseconds);

}  // namespace msprof::test
