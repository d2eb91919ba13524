#include "recorder/mstx/injection/name_table.h"

namespace msprof::mstx {

const std::string* NameTable::intern(std::string_view name) {
  std::lock_guard lock(mutex_);
  auto found = names_.find(name);
  if (found == names_.end()) found = names_.emplace(name).first;
  return &*found;
}

// Deliberately never destroyed (still reachable, so not a leak): annotation
// calls may arrive from threads that outlive static destruction.
NameTable& domain_names() noexcept {
  static NameTable* const table = new NameTable;
  return *table;
}

NameTable& registered_strings() noexcept {
  static NameTable* const table = new NameTable;
  return *table;
}

}  // namespace msprof::mstx
