#include "replayer/core/restore/address_translation.h"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using msprof::replay::AddressTranslation;

namespace {

std::vector<std::byte> words(const std::vector<std::uint64_t>& values) {
  std::vector<std::byte> out(values.size() * 8);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::vector<std::uint64_t> values(const std::vector<std::byte>& bytes, std::size_t skip = 0) {
  std::vector<std::uint64_t> out((bytes.size() - skip) / 8);
  std::memcpy(out.data(), bytes.data() + skip, out.size() * 8);
  return out;
}

}  // namespace

TEST_CASE("address translation: stored pointers move to the replayed allocation and back") {
  AddressTranslation t;
  t.add(0x7f00'0000'1000, 0x100, 0x5500'0000'8000);
  t.add(0x7f00'0000'2000, 0x40, 0x5500'0000'9000);
  auto bytes = words({0x7f00'0000'1000, 0x7f00'0000'10ff, 0x7f00'0000'1100, 0x7f00'0000'2008, 42, 0,
                      0x7f00'0000'0fff});
  CHECK(t.to_replay(bytes, 0) == 3);
  CHECK(values(bytes) == std::vector<std::uint64_t>{0x5500'0000'8000, 0x5500'0000'80ff,
                                                    0x7f00'0000'1100,  // one past the end
                                                    0x5500'0000'9008, 42, 0, 0x7f00'0000'0fff});
  CHECK(t.to_recorded(bytes, 0) == 3);
  CHECK(values(bytes) == std::vector<std::uint64_t>{0x7f00'0000'1000, 0x7f00'0000'10ff,
                                                    0x7f00'0000'1100, 0x7f00'0000'2008, 42, 0,
                                                    0x7f00'0000'0fff});
}

TEST_CASE("address translation: only words aligned in their allocation are pointers") {
  AddressTranslation t;
  t.add(0x7f00'0000'1000, 0x100, 0x5500'0000'8000);
  // A piece that starts 4 bytes into its allocation: its first aligned word
  // is 4 bytes in.
  std::vector<std::byte> bytes(4);
  const auto tail = words({0x7f00'0000'1010, 0x7f00'0000'1020});
  bytes.insert(bytes.end(), tail.begin(), tail.end());
  CHECK(t.to_replay(bytes, 4) == 2);
  CHECK(values(bytes, 4) == std::vector<std::uint64_t>{0x5500'0000'8010, 0x5500'0000'8020});
  // Read as if it started at an aligned offset, the same words straddle.
  CHECK(t.to_recorded(bytes, 0) == 0);
}

TEST_CASE("address translation: allocations at their recorded addresses change nothing") {
  AddressTranslation t;
  CHECK(t.empty());
  t.add(0x1000, 0x100, 0x1000);
  CHECK(t.identity());
  auto bytes = words({0x1010});
  CHECK(t.to_replay(bytes, 0) == 0);
  CHECK(values(bytes) == std::vector<std::uint64_t>{0x1010});
}
