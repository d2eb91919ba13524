#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
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

// Streaming XXH3-128, for blobs that arrive in pieces.
class Hasher128 {
 public:
  Hasher128();
  ~Hasher128();
  Hasher128(Hasher128&&) noexcept;
  Hasher128& operator=(Hasher128&&) noexcept;

  void update(std::span<const std::byte> data);
  Hash128 digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

struct Hash128Hasher {
  std::size_t operator()(const Hash128& h) const noexcept {
    return h.lo ^ (h.hi * 0x9E3779B97F4A7C15ull);
  }
};

}  // namespace msprof::trace
