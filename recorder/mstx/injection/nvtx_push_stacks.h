#pragma once

#include <cstdint>

namespace msprof::mstx {

// NVTX push/pop ranges have no id in the API, so the ids the sink returned
// are kept here: one stack per domain per thread, innermost last.

// Remembers `id` as the innermost range of `domain` on this thread; returns
// its zero-based nesting level.
int push_range_id(const void* domain, std::uint64_t id);

// Takes the innermost range of `domain` on this thread. Returns its level,
// or -1 (and leaves `id` alone) when none is open.
int pop_range_id(const void* domain, std::uint64_t& id) noexcept;

}  // namespace msprof::mstx
