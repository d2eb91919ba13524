#include "format/byte_shuffle.h"

#include <cassert>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace msprof::trace {

namespace {

// Elements [from, n) one byte at a time: what the vector loops leave over,
// and everything where there are none.
void shuffle_tail(const std::byte* src, std::byte* out, std::size_t from, std::size_t n) {
  for (std::size_t i = from; i < n; ++i) {
    for (std::size_t k = 0; k < 4; ++k) out[k * n + i] = src[4 * i + k];
  }
}

void unshuffle_tail(const std::byte* in, std::byte* dst, std::size_t from, std::size_t n) {
  for (std::size_t i = from; i < n; ++i) {
    for (std::size_t k = 0; k < 4; ++k) dst[4 * i + k] = in[k * n + i];
  }
}

}  // namespace

// With SSE2 (every x86-64), 16 elements at a time by three rounds of byte
// interleaving: several times faster than byte by byte (shuffle_bench's
// first line), and the recorder shuffles every float snapshot.
void shuffle4(std::span<const std::byte> in, std::span<std::byte> out) {
  assert(in.size() == out.size() && in.size() % 4 == 0);
  const std::size_t n = in.size() / 4;
  const std::byte* src = in.data();
  std::byte* planes = out.data();
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const auto* s = reinterpret_cast<const __m128i*>(src + 4 * i);
    const __m128i v0 = _mm_loadu_si128(s), v1 = _mm_loadu_si128(s + 1), v2 = _mm_loadu_si128(s + 2),
                  v3 = _mm_loadu_si128(s + 3);
    // Each round halves the stride between bytes of one plane.
    const __m128i t0 = _mm_unpacklo_epi8(v0, v1), t1 = _mm_unpackhi_epi8(v0, v1),
                  t2 = _mm_unpacklo_epi8(v2, v3), t3 = _mm_unpackhi_epi8(v2, v3);
    const __m128i u0 = _mm_unpacklo_epi8(t0, t1), u1 = _mm_unpackhi_epi8(t0, t1),
                  u2 = _mm_unpacklo_epi8(t2, t3), u3 = _mm_unpackhi_epi8(t2, t3);
    // Planes 0 and 1 of elements 0-7 in w0, 2 and 3 in w1; w2, w3 for 8-15.
    const __m128i w0 = _mm_unpacklo_epi8(u0, u1), w1 = _mm_unpackhi_epi8(u0, u1),
                  w2 = _mm_unpacklo_epi8(u2, u3), w3 = _mm_unpackhi_epi8(u2, u3);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(planes + i), _mm_unpacklo_epi64(w0, w2));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(planes + n + i), _mm_unpackhi_epi64(w0, w2));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(planes + 2 * n + i), _mm_unpacklo_epi64(w1, w3));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(planes + 3 * n + i), _mm_unpackhi_epi64(w1, w3));
  }
#endif
  shuffle_tail(src, planes, i, n);
}

void unshuffle4(std::span<const std::byte> in, std::span<std::byte> out) {
  assert(in.size() == out.size() && in.size() % 4 == 0);
  const std::size_t n = in.size() / 4;
  const std::byte* planes = in.data();
  std::byte* dst = out.data();
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) {
    const auto load = [&](std::size_t k) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(planes + k * n + i));
    };
    const __m128i p0 = load(0), p1 = load(1), p2 = load(2), p3 = load(3);
    // Bytes 0 and 1 of elements 0-7 paired in x0 (8-15 in x1), 2 and 3 in x2 (x3).
    const __m128i x0 = _mm_unpacklo_epi8(p0, p1), x1 = _mm_unpackhi_epi8(p0, p1),
                  x2 = _mm_unpacklo_epi8(p2, p3), x3 = _mm_unpackhi_epi8(p2, p3);
    auto* d = reinterpret_cast<__m128i*>(dst + 4 * i);
    _mm_storeu_si128(d, _mm_unpacklo_epi16(x0, x2));
    _mm_storeu_si128(d + 1, _mm_unpackhi_epi16(x0, x2));
    _mm_storeu_si128(d + 2, _mm_unpacklo_epi16(x1, x3));
    _mm_storeu_si128(d + 3, _mm_unpackhi_epi16(x1, x3));
  }
#endif
  unshuffle_tail(planes, dst, i, n);
}

}  // namespace msprof::trace
