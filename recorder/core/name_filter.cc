#include "recorder/core/name_filter.h"

#include <stdexcept>

namespace msprof::record {
namespace {

// Matches a class starting after '[' at p; returns the position after ']'.
std::size_t class_end(std::string_view p, std::size_t at) {
  std::size_t i = at;
  if (i < p.size() && p[i] == '!') ++i;
  if (i < p.size() && p[i] == ']') ++i;
  while (i < p.size() && p[i] != ']') ++i;
  return i < p.size() ? i + 1 : std::string_view::npos;
}

bool class_matches(std::string_view cls, char c) {
  bool negate = false;
  std::size_t i = 0;
  if (i < cls.size() && cls[i] == '!') {
    negate = true;
    ++i;
  }
  bool hit = false;
  for (; i < cls.size(); ++i) {
    if (i + 2 < cls.size() && cls[i + 1] == '-') {
      hit = hit || (c >= cls[i] && c <= cls[i + 2]);
      i += 2;
    } else {
      hit = hit || c == cls[i];
    }
  }
  return hit != negate;
}

bool match_from(std::string_view p, std::size_t pi, std::string_view s, std::size_t si) {
  while (pi < p.size()) {
    const char c = p[pi];
    if (c == '*') {
      while (pi < p.size() && p[pi] == '*') ++pi;
      if (pi == p.size()) return true;
      for (std::size_t k = si; k <= s.size(); ++k) {
        if (match_from(p, pi, s, k)) return true;
      }
      return false;
    }
    if (si == s.size()) return false;
    if (c == '?') {
      ++pi;
      ++si;
    } else if (c == '[') {
      const std::size_t end = class_end(p, pi + 1);
      if (!class_matches(p.substr(pi + 1, end - pi - 2), s[si])) return false;
      pi = end;
      ++si;
    } else {
      if (c != s[si]) return false;
      ++pi;
      ++si;
    }
  }
  return si == s.size();
}

}  // namespace

bool glob_matches(std::string_view pattern, std::string_view name) {
  return match_from(pattern, 0, name, 0);
}

NameFilter NameFilter::parse(std::string_view patterns) {
  NameFilter filter;
  std::size_t start = 0;
  for (;;) {
    const std::size_t bar = patterns.find('|', start);
    const std::string_view alt =
        patterns.substr(start, bar == std::string_view::npos ? bar : bar - start);
    if (alt.empty()) {
      throw std::invalid_argument(
          "pattern '" + std::string(patterns) +
          "' has an empty alternative; write names separated by single '|'");
    }
    for (std::size_t i = 0; i < alt.size(); ++i) {
      if (alt[i] == '[') {
        const std::size_t end = class_end(alt, i + 1);
        if (end == std::string_view::npos) {
          throw std::invalid_argument("pattern '" + std::string(alt) +
                                      "' has an unclosed '['; close it with ']'");
        }
        i = end - 1;
      }
    }
    filter.alternatives_.emplace_back(alt);
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return filter;
}

int NameFilter::which(std::string_view name) const {
  for (std::size_t i = 0; i < alternatives_.size(); ++i) {
    if (glob_matches(alternatives_[i], name)) return static_cast<int>(i);
  }
  return -1;
}

bool NameFilter::matches(std::string_view name) const {
  return which(name) >= 0;
}

}  // namespace msprof::record
