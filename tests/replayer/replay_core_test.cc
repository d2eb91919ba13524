#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "replayer/core/copy_pieces.h"
#include "replayer/core/json_writer.h"
#include "replayer/core/path_name.h"
#include "replayer/core/range_selection.h"
#include "replayer/core/replay_error.h"
#include "replayer/core/replay_session.h"
#include "replayer/core/state_comparison.h"
#include "replayer/core/statistics.h"

using namespace msprof::replay;
using msprof::trace::Range;
using msprof::trace::RangeStatus;

namespace {

std::vector<std::byte> floats(const std::vector<float>& values) {
  std::vector<std::byte> out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

Range range_named(const std::string& name, RangeStatus status = RangeStatus::Complete,
                  const std::string& reason = "") {
  Range r;
  r.name = name;
  r.status = status;
  r.status_reason = reason;
  return r;
}

}  // namespace

TEST_CASE(
    "a restore is cut into whole-page pieces, one per worker, none but the last under 1 MiB") {
  const auto check_cover = [](const std::vector<CopyPiece>& pieces, std::uint64_t size) {
    std::uint64_t next = 0;
    for (const auto& p : pieces) {
      CHECK(p.offset == next);
      CHECK(p.size > 0);
      next = p.offset + p.size;
    }
    CHECK(next == size);
  };
  CHECK(copy_pieces(0, 4).empty());
  CHECK(copy_pieces(4096, 8).size() == 1);
  // Under 2 MiB: one piece, whatever the workers.
  CHECK(copy_pieces((2u << 20) - 1, 8).size() == 1);
  const auto two = copy_pieces(32u << 20, 2);
  REQUIRE(two.size() == 2);
  CHECK(two[0].size == 16u << 20);
  check_cover(two, 32u << 20);
  // An odd size: whole pages but the last piece, never more than the workers.
  const std::uint64_t odd = (4u << 20) + 768;
  const auto pieces = copy_pieces(odd, 2);
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].size % 4096 == 0);
  check_cover(pieces, odd);
  // size = workers * whole pages + a remainder smaller than the workers.
  const std::uint64_t edge = 3 * (1u << 20) + 2;
  CHECK(copy_pieces(edge, 3).size() == 3);
  check_cover(copy_pieces(edge, 3), edge);
  // More workers than MiB: one piece per MiB at most.
  CHECK(copy_pieces(3u << 20, 16).size() == 3);
  CHECK(copy_pieces(5u << 20, 0).size() == 1);
}

TEST_CASE("statistics over passes") {
  const std::vector<double> values = {4, 1, 3, 2};
  const Statistics s = summarize(values);
  CHECK(s.min == 1);
  CHECK(s.max == 4);
  CHECK(s.median == doctest::Approx(2.5));
  CHECK(s.mean == doctest::Approx(2.5));
  CHECK(s.stddev == doctest::Approx(std::sqrt(1.25)));
  CHECK(summarize(std::vector<double>{7, 1, 5}).median == 5);
  CHECK(summarize({}).max == 0);
}

TEST_CASE("buffer comparison finds the first difference, counts and errors") {
  const auto expected = floats({1, 2, 3, 4, 5, 6});
  const BufferComparison same = compare_buffer(9, expected, expected);
  CHECK(same.equal);
  CHECK(same.as_float32);

  const auto actual = floats({1, 2, 3.5f, 4, 5, 3});
  const BufferComparison c = compare_buffer(9, expected, actual);
  CHECK_FALSE(c.equal);
  CHECK(c.as_float32);
  CHECK(c.buffer == 9);
  CHECK(c.first_index == 2);
  CHECK(c.differing == 2);
  CHECK(c.max_abs == doctest::Approx(3.0));
  CHECK(c.max_rel == doctest::Approx(0.5));

  // Not a multiple of 4: bytes.
  const std::vector<std::byte> e3 = {std::byte{1}, std::byte{2}, std::byte{3}};
  const std::vector<std::byte> a3 = {std::byte{1}, std::byte{9}, std::byte{3}};
  const BufferComparison b = compare_buffer(1, e3, a3);
  CHECK_FALSE(b.as_float32);
  CHECK(b.first_index == 1);
  CHECK(b.differing == 1);
  CHECK(b.max_abs == 7);

  // A NaN where a number was expected cannot hide.
  const BufferComparison n = compare_buffer(1, floats({1}), floats({NAN}));
  CHECK_FALSE(n.equal);
  CHECK(std::isinf(n.max_abs));
}

TEST_CASE("names from the trace become safe path components") {
  CHECK(sanitize_path_component("axpbyz") == "axpbyz");
  CHECK(sanitize_path_component("../../etc/passwd") == ".._.._etc_passwd");
  CHECK(sanitize_path_component("..") == "_..");
  CHECK(sanitize_path_component("") == "_");
  CHECK(sanitize_path_component("a b/c\\d:e") == "a_b_c_d_e");
  CHECK(sanitize_path_component(std::string(300, 'k')).size() == 100);
}

TEST_CASE("range selection: include, exclude, wildcards, statuses and unknown names") {
  const std::vector<Range> ranges = {range_named("range1"), range_named("range2"),
                                     range_named("cut", RangeStatus::Truncated),
                                     range_named("svm", RangeStatus::NotReplayable, "clSVMAlloc")};
  CHECK(split_patterns({"a|b", "c", "|"}) == std::vector<std::string>{"a", "b", "c"});
  CHECK(name_matches("range*", "range12"));
  CHECK_FALSE(name_matches("range*", "xrange1"));

  const auto all = select_ranges(ranges, {}, "t.fb");
  REQUIRE(all.size() == 4);
  CHECK(all[0].replayable);
  CHECK_FALSE(all[2].replayable);
  CHECK(all[2].skip_reason == "truncated");
  CHECK(all[3].skip_reason == "not replayable: clSVMAlloc");

  const auto some = select_ranges(ranges, {{"range*"}, {"range2"}}, "t.fb");
  REQUIRE(some.size() == 1);
  CHECK(some[0].range->name == "range1");

  try {
    select_ranges(ranges, {{"foo"}, {}}, "t.fb");
    FAIL("an unknown range must be an error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) ==
          "no range named 'foo' in t.fb; ranges: 'range1', 'range2', 'cut', 'svm'");
  }
  CHECK_THROWS_AS(select_ranges(ranges, {{}, {"nope"}}, "t.fb"), UsageError);
}

TEST_CASE("the cache-clearing buffer is several times the cache, bounded by memory") {
  DeviceDescription d;
  d.global_cache_bytes = 1 << 20;
  d.global_mem_bytes = 1ull << 30;
  ReplayOptions o;
  CHECK(ReplaySession::cache_scratch_bytes(d, o) == 3 << 20);
  o.cache_bytes = 1ull << 30;
  CHECK(ReplaySession::cache_scratch_bytes(d, o) == (1ull << 30) / 4);
  o.cache_control = CacheControl::None;
  CHECK(ReplaySession::cache_scratch_bytes(d, o) == 0);
}

TEST_CASE("JSON strings are escaped and non-finite numbers become null") {
  JsonWriter j;
  j.begin_object().key("a\"b").value("x\ny\x01").key("n").value(NAN).key("l").begin_array();
  j.value(std::uint64_t{1}).value(true).end_array().end_object();
  CHECK(j.text() == R"({"a\"b":"x\ny\u0001","n":null,"l":[1,true]})");
}
