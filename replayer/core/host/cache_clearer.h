#pragma once

#include <cstdint>
#include <string>

namespace msprof::replay {

// Evicts what a range left in the device caches, between passes and never
// inside one. A backend picks the way that suits its device.
class CacheClearer {
 public:
  virtual ~CacheClearer() = default;
  virtual void clear() = 0;
  virtual std::uint64_t scratch_bytes() const = 0;
  // How, in words, for the user: "read 96 MiB from 2 host threads".
  virtual std::string method() const = 0;
};

}  // namespace msprof::replay
