#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>

namespace msprof::replay {

// Memory addressed by pointer (OpenCL SVM, CUDA) is replayed at addresses of
// its own, which in general differ from the recorded ones. A pointer stored
// in such memory (a linked structure) must then be moved along: every
// aligned 64-bit word whose value falls inside a recorded allocation is
// rewritten to the same offset in the replayed one, and back when the
// replay's memory is compared with the recording. Device neutral.
//
// A word is taken for a pointer by its value alone. Data that happens to
// hold such a value (a 64-bit integer equal to an address of the recorded
// process) is rewritten too; addresses of 64-bit processes make that rare.
class AddressTranslation {
 public:
  void add(std::uint64_t recorded_base, std::uint64_t size, std::uint64_t replay_base);
  bool empty() const { return to_replay_.empty(); }
  // Whether every allocation sits at its recorded address (nothing to do).
  bool identity() const;

  // Rewrites recorded addresses in `bytes` to replayed ones; `offset` is
  // the bytes' distance from the start of their (aligned) allocation, which
  // says where the aligned words are. Returns the words rewritten.
  std::size_t to_replay(std::span<std::byte> bytes, std::uint64_t offset) const;
  // The reverse, for memory read back from the replay.
  std::size_t to_recorded(std::span<std::byte> bytes, std::uint64_t offset) const;

 private:
  struct Target {
    std::uint64_t size = 0;
    std::uint64_t base = 0;  // in the other address space
  };
  using Map = std::map<std::uint64_t, Target>;
  static std::size_t rewrite(const Map& map, std::span<std::byte> bytes, std::uint64_t offset);

  Map to_replay_, to_recorded_;
};

}  // namespace msprof::replay
