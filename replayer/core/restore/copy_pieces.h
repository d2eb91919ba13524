#pragma once

#include <cstdint>
#include <vector>

namespace msprof::replay {

struct CopyPiece {
  std::uint64_t offset = 0, size = 0;
};

// A copy of `size` bytes cut into pieces that `workers` threads of a device
// can run at once: one thread's memcpy is bound by the misses it keeps in
// flight, not by memory bandwidth. Pieces are whole 4 KiB pages, so no two
// share a cache line, and at least 1 MiB, so each is worth a command (the
// last one may be shorter on both counts); at most one per worker. Empty
// for size 0.
std::vector<CopyPiece> copy_pieces(std::uint64_t size, unsigned workers);

}  // namespace msprof::replay
