#include <doctest/doctest.h>

#include <stdexcept>

#include "recorder/core/name_filter.h"

using msprof::record::glob_matches;
using msprof::record::NameFilter;

TEST_CASE("globs match whole names with * ? and classes") {
  CHECK(glob_matches("range1", "range1"));
  CHECK_FALSE(glob_matches("range1", "range10"));
  CHECK_FALSE(glob_matches("range", "range1"));
  CHECK(glob_matches("range*", "range10"));
  CHECK(glob_matches("*", ""));
  CHECK(glob_matches("r?nge", "range"));
  CHECK_FALSE(glob_matches("r?nge", "rnge"));
  CHECK(glob_matches("range[12]", "range2"));
  CHECK_FALSE(glob_matches("range[12]", "range3"));
  CHECK(glob_matches("range[!12]", "range3"));
  CHECK(glob_matches("step[0-9]", "step7"));
  CHECK(glob_matches("*mid*", "a-mid-b"));
}

TEST_CASE("alternatives are separated by | and the first match is reported") {
  const auto f = NameFilter::parse("range1|range2|warm*");
  CHECK(f.alternatives().size() == 3);
  CHECK(f.matches("range2"));
  CHECK(f.which("warmup") == 2);
  CHECK(f.which("range3") == -1);
}

TEST_CASE("malformed patterns are refused with the reason") {
  CHECK_THROWS_WITH_AS(NameFilter::parse(""), doctest::Contains("empty alternative"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(NameFilter::parse("a||b"), doctest::Contains("empty alternative"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(NameFilter::parse("a|"), doctest::Contains("empty alternative"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(NameFilter::parse("r[12"), doctest::Contains("unclosed"),
                       std::invalid_argument);
}
