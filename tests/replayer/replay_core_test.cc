#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "replayer/core/plan/range_selection.h"
#include "replayer/core/replay_error.h"
#include "replayer/core/restore/copy_pieces.h"
#include "replayer/core/results/json_writer.h"
#include "replayer/core/results/path_name.h"
#include "replayer/core/results/statistics.h"
#include "replayer/core/session/replay_session.h"
#include "replayer/core/verify/element_type.h"
#include "replayer/core/verify/state_comparison.h"

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
  const ElementType f32 = element_type_of("float*");
  const auto expected = floats({1, 2, 3, 4, 5, 6});
  const BufferComparison same = compare_buffer(9, expected, expected, f32);
  CHECK(same.equal);
  CHECK(same.element.name == "float32");

  const auto actual = floats({1, 2, 3.5f, 4, 5, 3});
  const BufferComparison c = compare_buffer(9, expected, actual, f32);
  CHECK_FALSE(c.equal);
  CHECK(c.buffer == 9);
  CHECK(c.first_index == 2);
  CHECK(c.differing == 2);
  CHECK(c.outside == 2);
  CHECK(c.max_abs == doctest::Approx(3.0));
  CHECK(c.max_rel == doctest::Approx(0.5));

  // No element type known: bytes, never a float32 reading of them.
  const std::vector<std::byte> e4 = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
  const std::vector<std::byte> a4 = {std::byte{1}, std::byte{9}, std::byte{3}, std::byte{4}};
  const BufferComparison b = compare_buffer(1, e4, a4);
  CHECK(b.element.name == "bytes");
  CHECK(b.first_index == 1);
  CHECK(b.differing == 1);
  CHECK(b.max_abs == 7);

  // A NaN where a number was expected cannot hide.
  const BufferComparison n = compare_buffer(1, floats({1}), floats({NAN}), f32);
  CHECK_FALSE(n.equal);
  CHECK(std::isinf(n.max_abs));
}

TEST_CASE("element types come from the kernels' argument type names") {
  CHECK(element_type_of("float*").name == "float32");
  CHECK(element_type_of("const float4*").name == "float32");
  CHECK(element_type_of("__global int *").name == "int32");
  CHECK(element_type_of("uint*").name == "uint32");
  CHECK(element_type_of("unsigned int*").name == "uint32");
  CHECK(element_type_of("half8*").name == "float16");
  CHECK(element_type_of("double*").name == "float64");
  CHECK(element_type_of("uchar16*").name == "uint8");
  CHECK(element_type_of("long*").name == "int64");
  CHECK(element_type_of("struct particle*").name == "struct particle");
  CHECK(element_type_of("struct particle*").kind == ElementType::Kind::Bytes);
  CHECK(element_type_of("").name == "bytes");
  CHECK(element_type_of("void*").name == "bytes");
}

TEST_CASE("an int32 buffer that differs is reported in int32") {
  const std::vector<std::int32_t> e = {5, -3, 100000, 7};
  std::vector<std::int32_t> a = e;
  a[2] = 100003;
  const auto bytes = [](const std::vector<std::int32_t>& v) {
    std::vector<std::byte> out(v.size() * 4);
    std::memcpy(out.data(), v.data(), out.size());
    return out;
  };
  const BufferComparison c =
      compare_buffer(3, bytes(e), bytes(a), element_type_of("int*"), Tolerance{10, 0});
  CHECK(c.element.name == "int32");
  CHECK(c.first_index == 2);
  CHECK(c.max_abs == 3);  // not 4.2e-45, as a float32 reading of the bits says
  CHECK(c.outside == 1);  // integers never pass on a tolerance
}

TEST_CASE("a tolerance accepts floating-point differences within it, and NaN only bit for bit") {
  const ElementType f32 = element_type_of("float*");
  const auto e = floats({100, 1, 0});
  const auto a = floats({100.001f, 1, 1e-7f});
  const BufferComparison within = compare_buffer(1, e, a, f32, Tolerance{1e-6, 1e-4});
  CHECK_FALSE(within.equal);
  CHECK(within.within_tolerance());
  const BufferComparison outside = compare_buffer(1, e, a, f32, Tolerance{1e-9, 1e-9});
  CHECK(outside.outside == 2);
  CHECK_FALSE(outside.within_tolerance());

  std::uint32_t nan_a = 0x7fc00000, nan_b = 0x7fc00001;
  std::vector<std::byte> na(4), nb(4);
  std::memcpy(na.data(), &nan_a, 4);
  std::memcpy(nb.data(), &nan_b, 4);
  CHECK(compare_buffer(1, na, na, f32, Tolerance{1, 1}).equal);
  CHECK(compare_buffer(1, na, nb, f32, Tolerance{1, 1}).outside == 1);
}

TEST_CASE("the chunked comparison finds a difference in the last element of a multi-chunk buffer") {
  const ElementType f64 = element_type_of("double*");
  const std::size_t n = (3u << 20) / 8 + 5;  // three and a bit chunks of 1 MiB
  std::vector<std::byte> expected(n * 8), actual;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(i) * 0.5;
    std::memcpy(expected.data() + i * 8, &v, 8);
  }
  actual = expected;
  const double last = -1;
  std::memcpy(actual.data() + (n - 1) * 8, &last, 8);
  // Pieces that split elements, as trace chunks of any size may.
  BufferComparator comparator(4, expected.size(), f64, std::nullopt);
  const std::size_t piece = (1u << 20) + 3;
  for (std::size_t at = 0; at < expected.size(); at += piece) {
    const std::size_t len = std::min(piece, expected.size() - at);
    comparator.feed(std::span(expected).subspan(at, len), std::span(actual).subspan(at, len));
  }
  const BufferComparison c = comparator.finish(actual.size());
  CHECK_FALSE(c.equal);
  CHECK(c.differing == 1);
  CHECK(c.first_index == n - 1);
  CHECK(c.max_abs == doctest::Approx(static_cast<double>(n - 1) * 0.5 + 1));

  // A replayed buffer shorter than the recording differs past its end.
  BufferComparator shorter(4, 16, f64, std::nullopt);
  shorter.feed(std::span(expected).first(8), std::span(expected).first(8));
  const BufferComparison s = shorter.finish(8);
  CHECK(s.first_index == 1);
  CHECK(s.differing == 1);
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
