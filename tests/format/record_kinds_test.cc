#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "format/frame.h"
#include "format/record_codec.h"
#include "format/trace_error.h"
#include "tests/format/sample_trace.h"

using namespace msprof::trace;

namespace {

std::uint16_t value_of(FrameType type) {
  return static_cast<std::uint16_t>(type);
}

// frame_type_of each alternative of Record, in the variant's order.
template <std::size_t... I>
constexpr std::array<FrameType, sizeof...(I)> frame_types_of(std::index_sequence<I...>) {
  return {frame_type_of<std::variant_alternative_t<I, Record>>()...};
}

}  // namespace

TEST_CASE("the frame types keep their values on disk") {
  // The container specification in format/README.md: a changed value would
  // make every trace written before unreadable. New kinds add values.
  const std::pair<std::string_view, std::uint16_t> on_disk[] = {
      {"trace-info", 1},     {"context", 2},     {"program", 3}, {"kernel", 4},
      {"buffer", 5},         {"queue", 6},       {"sampler", 7}, {"range", 8},
      {"blob-manifest", 16}, {"blob-chunk", 17}, {"index", 32}};
  for (const auto& [name, value] : on_disk) {
    CAPTURE(name);
    CHECK(frame_type_name(value) == name);
  }
}

TEST_CASE("every frame kind has a value and a name of its own") {
  std::set<std::uint16_t> values;
  std::set<std::string_view> names;
  for (const FrameKind& kind : kFrameKinds) {
    CAPTURE(kind.name);
    CHECK(value_of(kind.type) != 0);
    CHECK_FALSE(kind.name.empty());
    CHECK(kind.name != "unknown");
    CHECK(values.insert(value_of(kind.type)).second);
    CHECK(names.insert(kind.name).second);
    CHECK(is_known_frame_type(value_of(kind.type)));
    CHECK(is_record_frame_type(value_of(kind.type)) == kind.is_record);
    CHECK(frame_type_name(value_of(kind.type)) == kind.name);
  }
  for (const std::uint16_t unknown : {0, 9, 15, 18, 31, 33, 0xffff}) {
    CAPTURE(unknown);
    CHECK_FALSE(is_known_frame_type(unknown));
    CHECK_FALSE(is_record_frame_type(unknown));
    CHECK(frame_type_name(unknown) == "unknown");
  }
}

TEST_CASE("the record kinds are the Record variant, in its order") {
  std::size_t records = 0;
  for (const FrameKind& kind : kFrameKinds) records += kind.is_record;
  REQUIRE(records == std::variant_size_v<Record>);
  // Records come first in kFrameKinds, so kind i is alternative i.
  for (std::size_t i = 0; i < records; ++i) CHECK(kFrameKinds[i].is_record);
  const auto types = frame_types_of(std::make_index_sequence<std::variant_size_v<Record>>());
  for (std::size_t i = 0; i < types.size(); ++i) {
    CAPTURE(kFrameKinds[i].name);
    CHECK(types[i] == kFrameKinds[i].type);
  }
}

TEST_CASE("every record kind encodes to its frame type and decodes back") {
  auto records = msprof::test::make_sample_records(1024).records;
  // The writer makes manifests itself; the sample holds none.
  records.push_back(BlobManifest{{1, 2}, 5000, 4096, {{{3, 4}, 4096}, {{5, 6}, 904}}});
  std::set<std::size_t> kinds_seen;
  for (const Record& record : records) {
    const FrameKind& kind = kFrameKinds[record.index()];
    CAPTURE(kind.name);
    kinds_seen.insert(record.index());
    const EncodedRecord encoded = encode_record(record);
    CHECK(encoded.type == kind.type);
    CHECK(decode_record(encoded.type, encoded.bytes, 0) == record);
    // Every other frame type refuses the body: a record is read only as
    // the kind its frame announces.
    for (const FrameKind& other : kFrameKinds) {
      if (other.type == kind.type) continue;
      CAPTURE(other.name);
      CHECK_THROWS_AS(decode_record(other.type, encoded.bytes, 0), CorruptError);
    }
  }
  CHECK(kinds_seen.size() == std::variant_size_v<Record>);
}
