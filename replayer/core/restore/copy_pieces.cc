#include "replayer/core/restore/copy_pieces.h"

#include <algorithm>

namespace msprof::replay {

namespace {

constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kMinPiece = 1 << 20;

}  // namespace

std::vector<CopyPiece> copy_pieces(std::uint64_t size, unsigned workers) {
  std::vector<CopyPiece> pieces;
  if (size == 0) return pieces;
  const std::uint64_t most = std::max<std::uint64_t>(1, size / kMinPiece);
  const std::uint64_t count = std::clamp<std::uint64_t>(workers, 1, most);
  // Rounded up to whole pages, so the pieces cover everything in at most
  // `count` steps.
  const std::uint64_t share = (size + count - 1) / count;
  const std::uint64_t step = (share + kPage - 1) / kPage * kPage;
  for (std::uint64_t offset = 0; offset < size; offset += step) {
    pieces.push_back({offset, std::min(step, size - offset)});
  }
  return pieces;
}

}  // namespace msprof::replay
