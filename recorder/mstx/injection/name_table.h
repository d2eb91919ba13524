#pragma once

#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace msprof::mstx {

// Interned names (domains, registered strings) whose addresses serve as the
// opaque handles the C APIs hand out. Entries live as long as the table, and
// the tables live as long as the process: a program may use a handle after
// destroying it, or from a thread still running at exit.
class NameTable {
 public:
  // The same address for equal names.
  const std::string* intern(std::string_view name);

 private:
  std::mutex mutex_;
  std::set<std::string, std::less<>> names_;
};

// The process's tables, never destroyed.
NameTable& domain_names() noexcept;
NameTable& registered_strings() noexcept;

}  // namespace msprof::mstx
