#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace msprof::trace {

// Content identity of blobs and chunks: XXH3-128.
struct Hash128 {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;

  friend bool operator==(const Hash128&, const Hash128&) = default;
  friend auto operator<=>(const Hash128&, const Hash128&) = default;
  std::string hex() const;
};

Hash128 hash128(std::span<const std::byte> data);
// Checksums of frame headers and payloads, where 64 bits are plenty.
std::uint64_t hash64(std::span<const std::byte> data);

// A blob's key, from the keys of its chunks in order: a blob of one chunk
// is known by that chunk's key (an empty one by the key of no bytes), a
// longer one by the XXH3-128 of its chunk keys (16 little-endian bytes
// each), seeded so that no chunk's bytes can stand for a list of keys. So
// the bytes of a blob are hashed once, chunk by chunk, where hashing the
// whole as well cost the writer's caller a second pass. Equal content has
// equal keys at equal chunk sizes: within a trace, and between traces
// written with the same chunk size.
Hash128 blob_key(std::span<const Hash128> chunk_keys);
// The key a writer cutting chunks of `chunk_size` bytes gives a blob of
// `data` (what a test or a tool expects before anything is written).
Hash128 blob_key_of_content(std::span<const std::byte> data, std::uint64_t chunk_size);

// XXH3-128 of bytes that arrive in pieces: equal to hash128() of them
// joined, without holding them joined.
class Hash128Stream {
 public:
  Hash128Stream();
  ~Hash128Stream();
  Hash128Stream(const Hash128Stream&) = delete;
  Hash128Stream& operator=(const Hash128Stream&) = delete;
  void update(std::span<const std::byte> data);
  Hash128 digest() const;

 private:
  void* state_;  // XXH3_state_t, kept out of this header
};

struct Hash128Hasher {
  std::size_t operator()(const Hash128& h) const noexcept {
    return h.lo ^ (h.hi * 0x9E3779B97F4A7C15ull);
  }
};

}  // namespace msprof::trace
