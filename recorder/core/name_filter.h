#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace msprof::record {

// Range selection as the reference's --mstx-include: alternatives separated
// by '|', each matched against the whole name, with '*' (any run), '?' (any
// one character) and '[...]' classes. An empty alternative or an unclosed
// class is malformed (std::invalid_argument with the reason).
class NameFilter {
 public:
  NameFilter() = default;
  static NameFilter parse(std::string_view patterns);

  bool empty() const { return alternatives_.empty(); }
  bool matches(std::string_view name) const;
  const std::vector<std::string>& alternatives() const { return alternatives_; }
  // Index of the first alternative that matches, or -1.
  int which(std::string_view name) const;

 private:
  std::vector<std::string> alternatives_;
};

// True when `name` matches one glob pattern as described above.
bool glob_matches(std::string_view pattern, std::string_view name);

}  // namespace msprof::record
