#include "recorder/core/memory_table.h"

#include <doctest/doctest.h>

#include <memory>

#include "recorder/core/touched_memory.h"

using msprof::record::MemoryKey;
using msprof::record::MemoryTable;
using msprof::record::TouchedMemory;

namespace {

struct Memory {
  int id = 0;
  std::uint64_t bytes = 0;
  std::uint64_t size() const { return bytes; }
};

std::unique_ptr<Memory> memory(int id, std::uint64_t size) {
  return std::make_unique<Memory>(Memory{id, size});
}

}  // namespace

TEST_CASE("memory table: an address names its allocation and the offset into it") {
  MemoryTable<Memory> table;
  table.add(MemoryKey::address(0x1000), memory(1, 0x100));
  table.add(MemoryKey::address(0x1100), memory(2, 0x10));  // right after the first
  table.add(MemoryKey::address(0x2000), memory(3, 0));     // zero-sized
  CHECK_FALSE(table.find_address(0xfff));
  const auto first = table.find_address(0x1000);
  REQUIRE(first);
  CHECK(first->object->id == 1);
  CHECK(first->offset == 0);
  CHECK(first->key() == MemoryKey::address(0x1000));
  CHECK(table.find_address(0x10ff)->object->id == 1);
  // One past the end of the first is the start of the second.
  CHECK(table.find_address(0x1100)->object->id == 2);
  CHECK(table.find_address(0x1100)->offset == 0);
  CHECK(table.find_address(0x110f)->offset == 0xf);
  CHECK_FALSE(table.find_address(0x1110));
  CHECK(table.find_address(0x2000)->object->id == 3);
  CHECK_FALSE(table.find_address(0x2001));
  REQUIRE(table.find(MemoryKey::address(0x1100)) != nullptr);
  CHECK(table.find(MemoryKey::address(0x1101)) == nullptr);
  table.erase(MemoryKey::address(0x1000));
  CHECK_FALSE(table.find_address(0x1010));
  CHECK(table.size() == 2);
}

TEST_CASE("memory table: handles and addresses are apart, in one table") {
  MemoryTable<Memory> table;
  int a = 0;
  const void* handle = &a;
  const auto address = reinterpret_cast<std::uintptr_t>(handle);
  table.add(MemoryKey::handle(handle), memory(1, 0x100));
  // A handle is no address: nothing holds the handle's value by address.
  CHECK_FALSE(table.find_address(address));
  CHECK_FALSE(table.find_address(address + 1));
  table.add(MemoryKey::address(address), memory(2, 0x10));
  CHECK(table.find(MemoryKey::handle(handle))->id == 1);
  CHECK(table.find(MemoryKey::address(address))->id == 2);
  CHECK(table.find_address(address + 4)->object->id == 2);
  // With no allocation left, the handle just below in the table does not
  // answer an address lookup.
  table.erase(MemoryKey::address(address));
  CHECK_FALSE(table.find_address(~std::uint64_t{0}));
  // Adding under a key in use replaces the object (a reused handle).
  table.add(MemoryKey::handle(handle), memory(3, 0x100));
  CHECK(table.find(MemoryKey::handle(handle))->id == 3);
  CHECK(table.size() == 1);
  int visited = 0;
  for (const auto& [key, object] : table) visited += object->id;
  CHECK(visited == 3);
}

TEST_CASE("touched memory: first-touch order, the last queue of each") {
  TouchedMemory<int> touched;
  const auto buffer = MemoryKey::handle(&touched);
  const auto allocation = MemoryKey::address(0x1000);
  CHECK(touched.touch(buffer, 1));
  CHECK(touched.touch(allocation, 1));
  CHECK_FALSE(touched.touch(buffer, 2));  // again: the last queue changes
  auto it = touched.begin();
  CHECK(it->key == buffer);
  CHECK(it->last_queue == 2);
  ++it;
  CHECK(it->key == allocation);
  CHECK(it->last_queue == 1);
  // Freed inside the range: taken out, with the queue to read it on.
  CHECK(touched.forget(allocation) == 1);
  CHECK_FALSE(touched.forget(allocation));
  CHECK(std::distance(touched.begin(), touched.end()) == 1);
  touched.clear();
  CHECK(touched.empty());
}
