#include "format/hash128.h"

#include <algorithm>
#include <cstdio>
#include <new>
#include <vector>

#include <xxhash.h>

namespace msprof::trace {

std::string Hash128::hex() const {
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return text;
}

Hash128 hash128(std::span<const std::byte> data) {
  const XXH128_hash_t h = XXH3_128bits(data.data(), data.size());
  return {h.low64, h.high64};
}

Hash128Stream::Hash128Stream() : state_(XXH3_createState()) {
  if (state_ == nullptr) throw std::bad_alloc();
  XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_));
}

Hash128Stream::~Hash128Stream() {
  XXH3_freeState(static_cast<XXH3_state_t*>(state_));
}

void Hash128Stream::update(std::span<const std::byte> data) {
  XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), data.data(), data.size());
}

Hash128 Hash128Stream::digest() const {
  const XXH128_hash_t h = XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_));
  return {h.low64, h.high64};
}

std::uint64_t hash64(std::span<const std::byte> data) {
  return XXH3_64bits(data.data(), data.size());
}

Hash128 blob_key(std::span<const Hash128> chunk_keys) {
  // An empty blob has no chunk: its key is that of no bytes.
  if (chunk_keys.empty()) return hash128({});
  if (chunk_keys.size() == 1) return chunk_keys.front();
  // Any fixed seed other than 0 (what chunk keys use) keeps the two apart.
  constexpr XXH64_hash_t kBlobKeySeed = 0x626c6f622d6b6579;  // "blob-key"
  std::vector<unsigned char> bytes;
  bytes.reserve(chunk_keys.size() * 16);
  for (const Hash128& key : chunk_keys) {
    for (const std::uint64_t half : {key.lo, key.hi}) {
      for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<unsigned char>(half >> (8 * i)));
    }
  }
  const XXH128_hash_t h = XXH3_128bits_withSeed(bytes.data(), bytes.size(), kBlobKeySeed);
  return {h.low64, h.high64};
}

Hash128 blob_key_of_content(std::span<const std::byte> data, std::uint64_t chunk_size) {
  std::vector<Hash128> keys;
  for (std::size_t at = 0; at < data.size(); at += chunk_size) {
    keys.push_back(
        hash128(data.subspan(at, std::min<std::uint64_t>(chunk_size, data.size() - at))));
  }
  return blob_key(keys);
}

}  // namespace msprof::trace
