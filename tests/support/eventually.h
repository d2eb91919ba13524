#pragma once

#include <chrono>
#include <thread>

namespace msprof::test {

// Polls `done` until it holds, for work another thread does on its own
// time. The limit is long because a test machine may be busy; a test
// asserts the result, so a miss fails instead of hanging.
template <typename Predicate>
bool eventually(Predicate done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace msprof::test
