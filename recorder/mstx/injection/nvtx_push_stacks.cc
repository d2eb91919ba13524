#include "recorder/mstx/injection/nvtx_push_stacks.h"

#include <unordered_map>
#include <vector>

namespace msprof::mstx {
namespace {

using Stacks = std::unordered_map<const void*, std::vector<std::uint64_t>>;

Stacks& this_thread_stacks() {
  thread_local Stacks stacks;
  return stacks;
}

}  // namespace

int push_range_id(const void* domain, std::uint64_t id) {
  std::vector<std::uint64_t>& stack = this_thread_stacks()[domain];
  stack.push_back(id);
  return static_cast<int>(stack.size()) - 1;
}

int pop_range_id(const void* domain, std::uint64_t& id) noexcept {
  Stacks& stacks = this_thread_stacks();
  auto found = stacks.find(domain);
  if (found == stacks.end() || found->second.empty()) return -1;
  id = found->second.back();
  found->second.pop_back();
  return static_cast<int>(found->second.size());
}

}  // namespace msprof::mstx
