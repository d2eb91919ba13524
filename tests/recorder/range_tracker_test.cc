#include <doctest/doctest.h>

#include "recorder/core/range_tracker.h"

using msprof::record::NameFilter;
using msprof::record::RangeTracker;
using Action = RangeTracker::Action;

TEST_CASE("the first execution of each name is captured, later ones pass") {
  RangeTracker t({}, {});
  auto a = t.start("", "step");
  CHECK(a.action == Action::Capture);
  CHECK(t.end(a.id).captured);
  auto b = t.start("", "step");
  CHECK(b.action == Action::Pass);
  CHECK(b.id != a.id);
  CHECK(b.order == a.order + 1);
  CHECK_FALSE(t.end(b.id).captured);
  CHECK(t.start("other-domain", "step").action == Action::Capture);
}

TEST_CASE("a range opened inside another is ignored, and its end is harmless") {
  RangeTracker t({}, {});
  auto outer = t.start("", "range2");
  auto inner = t.start("", "range3");
  CHECK(inner.action == Action::Ignore);
  CHECK(inner.reason == "opened inside range 'range2'");
  CHECK(t.end(inner.id).known);
  CHECK_FALSE(t.end(inner.id).known);
  CHECK(t.open());
  CHECK(t.end(outer.id).captured);
  CHECK_FALSE(t.open());
  // Not ignored forever: its first effective execution is captured.
  CHECK(t.start("", "range3").action == Action::Capture);
}

TEST_CASE("a passed-over range still nests: ranges inside it are ignored") {
  RangeTracker t(NameFilter::parse("inner"), {});
  auto outer = t.start("", "outer");
  CHECK(outer.action == Action::Pass);
  CHECK(t.start("", "inner").action == Action::Ignore);
  t.end(outer.id);
}

TEST_CASE("a nested range in a loop is reported once, not on every iteration") {
  RangeTracker t({}, {});
  for (int i = 0; i < 3; ++i) {
    auto outer = t.start("", "step");
    auto inner = t.start("", "inner");
    // The captured first iteration reports it; a passed outer reports it
    // once per name, then it passes silently.
    CHECK(inner.action == (i == 0 ? Action::Ignore : Action::Pass));
    CHECK(t.end(inner.id).known);
    CHECK(t.end(outer.id).known);
  }
  // Inside another outer range it is reported again, once.
  auto other = t.start("", "other");
  CHECK(t.start("", "inner").action == Action::Ignore);
  t.end(other.id);
}

TEST_CASE("include and exclude filters, and knowing when every included range is captured") {
  RangeTracker t(NameFilter::parse("a|b*"), NameFilter::parse("b2"));
  CHECK_FALSE(t.all_included_captured());
  auto x = t.start("", "a");
  CHECK(x.action == Action::Capture);
  t.end(x.id);
  CHECK_FALSE(t.all_included_captured());
  auto y = t.start("", "b2");
  CHECK(y.action == Action::Pass);
  t.end(y.id);
  CHECK_FALSE(t.all_included_captured());
  auto z = t.start("", "b1");
  CHECK(z.action == Action::Capture);
  t.end(z.id);
  CHECK(t.all_included_captured());
  CHECK(t.start("", "c").action == Action::Pass);
}

TEST_CASE("an unknown or stale id ends nothing") {
  RangeTracker t({}, {});
  CHECK_FALSE(t.end(42).known);
  auto a = t.start("", "a");
  CHECK_FALSE(t.end(a.id + 100).known);
  CHECK(t.open());
  CHECK(t.end(a.id).known);
}
