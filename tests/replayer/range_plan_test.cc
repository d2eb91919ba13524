#include "replayer/core/plan/range_plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "format/trace_reader.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/replay_error.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using namespace msprof::replay;
using msprof::test::TempDir;

namespace {

trace::Buffer buffer(trace::CaptureId id, trace::CaptureId parent,
                     trace::MemoryKind kind = trace::MemoryKind::Buffer) {
  trace::Buffer b;
  b.id = id;
  b.context = 1;
  b.size = 64;
  b.parent = parent;
  b.kind = kind;
  return b;
}

trace::Range range_using(trace::CaptureId id, const std::string& name,
                         std::vector<trace::CaptureId> buffers) {
  trace::Range r;
  r.id = id;
  r.name = name;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    r.commands.push_back(
        {i, 20, 0, {}, false, 0, trace::BufferFill{buffers[i], {0}, 0, 64, std::nullopt}});
  }
  return r;
}

}  // namespace

TEST_CASE("range plan: memory two levels deep only under SVM or as an image; parents first") {
  TempDir dir;
  {
    trace::TraceWriter writer(dir / "t.fb");
    trace::TraceInfo info;
    info.api = "opencl";
    info.schema_version = trace::kSchemaVersion;
    info.min_reader_version = trace::kMinReaderVersion;
    writer.write(info);
    writer.write(trace::Context{1, {0}});
    writer.write(trace::Queue{20, 1, 0, 0, false, false});
    writer.write(buffer(1, 0, trace::MemoryKind::Pointer));  // an SVM allocation
    writer.write(buffer(2, 1));                              // a buffer over it
    writer.write(buffer(3, 2));                              // a sub-buffer of that
    writer.write(buffer(4, 0));
    writer.write(buffer(5, 4));                            // a sub-buffer
    writer.write(buffer(6, 5));                            // and one of that: damaged
    writer.write(buffer(7, 5, trace::MemoryKind::Image));  // an image over the sub-buffer
    writer.write(range_using(30, "fine", {3, 7}));
    writer.write(range_using(31, "damaged", {6}));
    writer.close();
  }
  const trace::TraceReader reader(dir / "t.fb");
  const TraceCatalog catalog(reader);
  const RangePlan plan = plan_range(catalog.ranges().at(0), catalog);
  std::vector<trace::CaptureId> ids;
  for (const auto* b : plan.buffers) ids.push_back(b->id);
  REQUIRE(ids.size() == 6);
  for (const auto* b : plan.buffers) {
    if (b->parent == 0) continue;
    const auto parent = std::find(ids.begin(), ids.end(), b->parent);
    const auto self = std::find(ids.begin(), ids.end(), b->id);
    CHECK(parent < self);
  }
  CHECK_THROWS_WITH_AS(plan_range(catalog.ranges().at(1), catalog),
                       "buffer 6 is a sub-buffer of a sub-buffer; the trace is damaged", PlanError);
}
