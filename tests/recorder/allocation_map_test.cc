#include "recorder/core/allocation_map.h"

#include <doctest/doctest.h>

using msprof::record::AllocationMap;

namespace {
struct Info {
  int id = 0;
  std::uint64_t size = 0;
};
}  // namespace

TEST_CASE("allocation map: an address names its allocation and the offset into it") {
  AllocationMap<Info> map;
  map.add(0x1000, {1, 0x100});
  map.add(0x1100, {2, 0x10});  // right after the first
  map.add(0x2000, {3, 0});     // zero-sized
  CHECK_FALSE(map.find(0xfff));
  const auto first = map.find(0x1000);
  REQUIRE(first);
  CHECK(first->info->id == 1);
  CHECK(first->offset == 0);
  CHECK(map.find(0x10ff)->info->id == 1);
  // One past the end of the first is the start of the second.
  CHECK(map.find(0x1100)->info->id == 2);
  CHECK(map.find(0x1100)->offset == 0);
  CHECK(map.find(0x110f)->offset == 0xf);
  CHECK_FALSE(map.find(0x1110));
  CHECK(map.find(0x2000)->info->id == 3);
  CHECK_FALSE(map.find(0x2001));
  REQUIRE(map.at(0x1100) != nullptr);
  CHECK(map.at(0x1101) == nullptr);
  map.erase(0x1000);
  CHECK_FALSE(map.find(0x1010));
  CHECK(map.size() == 2);
}
