#include "format/hash128.h"

#include <cstdio>

#include <xxhash.h>

#include "format/trace_error.h"

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

std::uint64_t hash64(std::span<const std::byte> data) {
  return XXH3_64bits(data.data(), data.size());
}

struct Hasher128::State {
  XXH3_state_t* xxh = nullptr;
  State() : xxh(XXH3_createState()) {
    if (xxh == nullptr) throw TraceError("out of memory for a hash state");
    XXH3_128bits_reset(xxh);
  }
  ~State() { XXH3_freeState(xxh); }
};

Hasher128::Hasher128() : state_(std::make_unique<State>()) {}
Hasher128::~Hasher128() = default;
Hasher128::Hasher128(Hasher128&&) noexcept = default;
Hasher128& Hasher128::operator=(Hasher128&&) noexcept = default;

void Hasher128::update(std::span<const std::byte> data) {
  XXH3_128bits_update(state_->xxh, data.data(), data.size());
}

Hash128 Hasher128::digest() const {
  const XXH128_hash_t h = XXH3_128bits_digest(state_->xxh);
  return {h.low64, h.high64};
}

}  // namespace msprof::trace
