#include <doctest/doctest.h>

#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "tests/format/sample_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

TEST_CASE("every record kind and every command kind survives a round trip") {
  TempDir dir;
  const auto sample = msprof::test::write_sample_trace(dir / "t.fb");
  TraceReader reader(dir / "t.fb");
  CHECK_FALSE(reader.recovered());
  CHECK(reader.warnings().empty());
  REQUIRE(reader.records().size() == sample.records.size());
  for (std::size_t i = 0; i < sample.records.size(); ++i) {
    const Record got = reader.read_record(reader.records()[i]);
    CHECK(got.index() == sample.records[i].index());
    CHECK(got == sample.records[i]);
  }
  const auto ranges = reader.read_all<Range>();
  REQUIRE(ranges.size() == 2);
  CHECK(ranges[0].commands.size() == 16);
  CHECK(std::holds_alternative<HostWait>(ranges[0].commands.back().body));
  CHECK(reader.info() == std::get<TraceInfo>(sample.records[0]));
  for (const auto& blob : sample.blobs) {
    const BlobRef ref = sample.ref(blob);
    REQUIRE(reader.has_blob(ref));
    CHECK(reader.read_blob(ref) == blob);
  }
}

TEST_CASE("an optional device address keeps the difference between absent and zero") {
  TempDir dir;
  {
    TraceWriter writer(dir / "t.fb");
    writer.write(Buffer{1, 0, 0, 8, 0, 0, std::nullopt});
    writer.write(Buffer{2, 0, 0, 8, 0, 0, 0});
    writer.close();
  }
  TraceReader reader(dir / "t.fb");
  const auto buffers = reader.read_all<Buffer>();
  REQUIRE(buffers.size() == 2);
  CHECK_FALSE(buffers[0].device_address.has_value());
  REQUIRE(buffers[1].device_address.has_value());
  CHECK(*buffers[1].device_address == 0);
}

TEST_CASE("an empty blob is a valid blob") {
  TempDir dir;
  BlobRef ref;
  {
    TraceWriter writer(dir / "t.fb");
    ref = writer.put_blob({});
    writer.close();
  }
  TraceReader reader(dir / "t.fb");
  CHECK(ref.size == 0);
  CHECK(reader.has_blob(ref));
  CHECK(reader.read_blob(ref).empty());
}

TEST_CASE("a blob that is not in the trace is a typed error") {
  TempDir dir;
  msprof::test::write_sample_trace(dir / "t.fb");
  TraceReader reader(dir / "t.fb");
  const BlobRef missing{Hash128{1, 2}, 10};
  CHECK_FALSE(reader.has_blob(missing));
  CHECK_THROWS_AS(reader.read_blob(missing), CorruptError);
}

TEST_CASE("large records compress and small ones stay raw") {
  TempDir dir;
  Program program;
  program.id = 1;
  program.sources = {std::string(100000, 'a')};
  {
    TraceWriter writer(dir / "t.fb");
    writer.write(program);
    writer.write(Context{2, {}});
    writer.close();
  }
  TraceReader reader(dir / "t.fb");
  REQUIRE(reader.records().size() == 2);
  CHECK(reader.records()[0].frame_size < 10000);
  CHECK(reader.read_record(reader.records()[0]) == Record{program});
  CHECK(std::get<Context>(reader.read_record(reader.records()[1])).id == 2);
}
