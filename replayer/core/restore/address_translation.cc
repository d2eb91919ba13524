#include "replayer/core/restore/address_translation.h"

#include <cstring>
#include <iterator>

namespace msprof::replay {

void AddressTranslation::add(std::uint64_t recorded_base, std::uint64_t size,
                             std::uint64_t replay_base) {
  if (size == 0) return;
  to_replay_[recorded_base] = {size, replay_base};
  to_recorded_[replay_base] = {size, recorded_base};
}

bool AddressTranslation::identity() const {
  for (const auto& [from, to] : to_replay_) {
    if (from != to.base) return false;
  }
  return true;
}

std::size_t AddressTranslation::to_replay(std::span<std::byte> bytes, std::uint64_t offset) const {
  return identity() ? 0 : rewrite(to_replay_, bytes, offset);
}

std::size_t AddressTranslation::to_recorded(std::span<std::byte> bytes,
                                            std::uint64_t offset) const {
  return identity() ? 0 : rewrite(to_recorded_, bytes, offset);
}

std::size_t AddressTranslation::rewrite(const Map& map, std::span<std::byte> bytes,
                                        std::uint64_t offset) {
  if (map.empty()) return 0;
  const std::uint64_t lowest = map.begin()->first;
  const std::uint64_t highest = std::prev(map.end())->first + std::prev(map.end())->second.size;
  std::size_t rewritten = 0;
  const std::size_t first = static_cast<std::size_t>((8 - offset % 8) % 8);
  for (std::size_t i = first; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    // Most words are no address at all: one comparison each.
    if (word < lowest || word >= highest) continue;
    auto it = map.upper_bound(word);
    if (it == map.begin()) continue;
    --it;
    if (word - it->first >= it->second.size) continue;
    word = it->second.base + (word - it->first);
    std::memcpy(bytes.data() + i, &word, 8);
    ++rewritten;
  }
  return rewritten;
}

}  // namespace msprof::replay
