#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <vector>

#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "replayer/core/plan/range_footprint.h"
#include "replayer/core/plan/restore_plan.h"
#include "replayer/core/restore/trace_restorer.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using namespace msprof::replay;
using msprof::test::TempDir;

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

std::vector<std::byte> random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<std::byte> out(n);
  for (auto& b : out) b = static_cast<std::byte>(gen());
  return out;
}

std::vector<std::byte> smooth_bytes(std::size_t n) {
  std::vector<std::byte> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>((i / 64) % 7);
  return out;
}

// A trace of blobs only: zeros, random bytes (stored as they are) and
// smooth bytes (stored compressed), in chunks of 64 KiB.
struct BlobTrace {
  TempDir dir;
  trace::BlobRef zeros, random, random_small, smooth;
  std::vector<std::byte> random_content, smooth_content;
  BlobTrace() {
    trace::TraceWriter::Options options;
    options.chunk_size = 64 << 10;
    trace::TraceWriter writer(dir / "t.fb", options);
    zeros = writer.put_blob(std::vector<std::byte>(300 << 10));
    random_content = random_bytes((256 << 10) + 5, 1);
    random = writer.put_blob(random_content);
    random_small = writer.put_blob(random_bytes(64 << 10, 2));
    smooth_content = smooth_bytes(256 << 10);
    smooth = writer.put_blob(smooth_content);
    writer.close();
  }
  std::filesystem::path path() const { return dir / "t.fb"; }
};

RangePlan plan_writing(std::vector<trace::BufferState> written) {
  static trace::Range range;
  RangePlan plan;
  plan.range = &range;
  plan.written = std::move(written);
  return plan;
}

}  // namespace

TEST_CASE(
    "restore plan: zeros by a fill, the costliest to read again copied first, within budget") {
  BlobTrace t;
  const trace::TraceReader reader(t.path());
  CHECK(is_zero_blob(reader, t.zeros));
  CHECK_FALSE(is_zero_blob(reader, t.random));
  CHECK_FALSE(is_zero_blob(reader, t.smooth));
  const RangePlan plan =
      plan_writing({{1, t.zeros}, {2, t.random}, {3, t.smooth}, {4, t.random_small}});
  const auto source_of = [](const RestorePlan& p, trace::CaptureId id) {
    for (const auto& b : p.buffers)
      if (b.state.buffer == id) return b.source;
    FAIL("no restore for buffer " << id);
    return RestoreSource::Zeros;
  };
  SUBCASE("copy: every non-zero buffer copied") {
    const auto p = plan_restores(plan, reader, RestorePolicy::Copy, 0);
    CHECK(source_of(p, 1) == RestoreSource::Zeros);
    for (trace::CaptureId id : {2, 3, 4}) CHECK(source_of(p, id) == RestoreSource::Copy);
    CHECK(p.total_bytes() == t.zeros.size + t.random.size + t.smooth.size + t.random_small.size);
  }
  SUBCASE("trace: none copied") {
    const auto p = plan_restores(plan, reader, RestorePolicy::Trace, 1ull << 40);
    for (trace::CaptureId id : {2, 3, 4}) CHECK(source_of(p, id) == RestoreSource::Trace);
    CHECK(p.bytes(RestoreSource::Copy) == 0);
    CHECK(p.bytes(RestoreSource::Zeros) == t.zeros.size);
  }
  SUBCASE("auto: the compressed buffer first, then the smaller raw one; the rest from the trace") {
    auto p = plan_restores(plan, reader, RestorePolicy::Auto, t.smooth.size + t.random_small.size);
    CHECK(source_of(p, 3) == RestoreSource::Copy);
    CHECK(source_of(p, 4) == RestoreSource::Copy);
    CHECK(source_of(p, 2) == RestoreSource::Trace);
    CHECK(p.bytes(RestoreSource::Copy) == t.smooth.size + t.random_small.size);
    p = plan_restores(plan, reader, RestorePolicy::Auto, t.smooth.size - 1);
    CHECK(source_of(p, 3) == RestoreSource::Trace);
    CHECK(source_of(p, 4) == RestoreSource::Copy);  // still fits
    p = plan_restores(plan, reader, RestorePolicy::Auto, 0);
    CHECK(p.bytes(RestoreSource::Copy) == 0);
  }
}

TEST_CASE("restore plan: an image is restored from a copy whatever the policy, zeros by a fill") {
  BlobTrace t;
  const trace::TraceReader reader(t.path());
  RangePlan plan = plan_writing({{1, t.random}, {2, t.zeros}, {3, t.smooth}});
  trace::Buffer image, zero_image, buffer;
  image.id = 1;
  image.kind = trace::MemoryKind::Image;
  zero_image.id = 2;
  zero_image.kind = trace::MemoryKind::Image;
  buffer.id = 3;
  plan.buffers = {&image, &zero_image, &buffer};
  const auto p = plan_restores(plan, reader, RestorePolicy::Trace, 0);
  REQUIRE(p.buffers.size() == 3);
  CHECK(p.buffers[0].source == RestoreSource::Copy);
  CHECK(p.buffers[1].source == RestoreSource::Zeros);
  CHECK(p.buffers[2].source == RestoreSource::Trace);
}

TEST_CASE("the trace restorer delivers every chunk once, at its offset, over several threads") {
  BlobTrace t;
  const trace::TraceReader reader(t.path());
  for (unsigned threads : {1u, 3u, 16u}) {
    TraceRestorer restorer(reader, threads, 1);
    CHECK(restorer.empty());
    restorer.add(7, t.random);
    restorer.add(8, t.smooth);
    CHECK(restorer.bytes() == t.random.size + t.smooth.size);
    std::map<trace::CaptureId, std::vector<std::byte>> out{
        {7, std::vector<std::byte>(t.random.size)}, {8, std::vector<std::byte>(t.smooth.size)}};
    std::mutex mutex;
    std::uint64_t delivered = 0;
    restorer.restore([&](trace::CaptureId id, std::uint64_t offset, std::span<const std::byte> b) {
      const std::lock_guard lock(mutex);
      auto& target = out.at(id);
      REQUIRE(offset + b.size() <= target.size());
      std::memcpy(target.data() + offset, b.data(), b.size());
      delivered += b.size();
    });
    CHECK(delivered == t.random.size + t.smooth.size);
    CHECK(out.at(7) == t.random_content);
    CHECK(out.at(8) == t.smooth_content);
  }
}

TEST_CASE("the trace restorer passes the first error on after every thread stopped") {
  BlobTrace t;
  const trace::TraceReader reader(t.path());
  TraceRestorer restorer(reader, 4, 1);
  restorer.add(7, t.random);
  std::atomic<int> calls{0};
  CHECK_THROWS_WITH_AS(
      restorer.restore([&](trace::CaptureId, std::uint64_t offset, std::span<const std::byte>) {
        ++calls;
        if (offset == 0) throw std::runtime_error("device refused the write");
      }),
      "device refused the write", std::runtime_error);
  CHECK(calls == 5);  // every other piece still went
}

TEST_CASE("a range's footprint, the copy budget and the fit check") {
  trace::Range range;
  trace::BufferWrite write;
  write.data.size = 3 * kMiB;
  range.commands.push_back({0, 1, 0, {}, false, 0, write});
  trace::BufferRead read;
  read.size = 2 * kMiB;
  range.commands.push_back({1, 1, 0, {}, false, 0, read});
  trace::Buffer root{1, 1, 0, 1024 * kMiB, 0, 0, std::nullopt};
  trace::Buffer sub{2, 1, 0, 512 * kMiB, 1, 0, std::nullopt};
  RangePlan plan;
  plan.range = &range;
  plan.buffers = {&root, &sub};
  RestorePlan restores;
  restores.buffers = {{{1, {{}, 100 * kMiB}}, RestoreSource::Copy},
                      {{3, {{}, 50 * kMiB}}, RestoreSource::Trace}};
  const auto f = footprint_of(plan, restores, 8 * kMiB);
  CHECK(f.buffers == 1024 * kMiB);  // the sub-buffer is inside its parent
  CHECK(f.copies == 100 * kMiB);
  CHECK(f.host_data == 5 * kMiB);
  CHECK(f.device_bytes() == 1132 * kMiB);

  SUBCASE("a device of its own memory") {
    const MemoryCapacity c{2000 * kMiB, 4000 * kMiB, false};
    CHECK_FALSE(fit_problem(f, c, false));
    const RangeFootprint none{1024 * kMiB, 0, 5 * kMiB, 0};
    CHECK(copy_budget(none, c, false) == 256 * kMiB);  // a quarter of 1 GiB, the minimum
    const MemoryCapacity small_device{1100 * kMiB, 4000 * kMiB, false};
    CHECK(copy_budget(none, small_device, false) == 76 * kMiB);
    CHECK(fit_problem(f, small_device, false) ==
          "needs 1.1 GiB of device memory (1.0 GiB of buffers, 100 MiB of restore copies, 8 MiB "
          "of cache-sweep scratch), the device offers 1.1 GiB; replay with --restore trace to "
          "hold no restore copies, or replay it on a device with more memory (--device)");
  }
  SUBCASE("a device in host memory, under --memory-limit") {
    const MemoryCapacity c{std::nullopt, 1000 * kMiB, true};
    CHECK(fit_problem(f, c, true) ==
          "needs 1.1 GiB of host memory (1.0 GiB of buffers, 100 MiB of restore copies, 8 MiB "
          "of cache-sweep scratch, 5 MiB of host data), --memory-limit allows 1000 MiB; replay "
          "with --restore trace to hold no restore copies, or raise --memory-limit");
    const RangeFootprint none{1024 * kMiB, 0, 5 * kMiB, 0};
    CHECK(copy_budget(none, c, true) == 0);
    const RangeFootprint big{4096 * kMiB, 0, 0, 0};
    CHECK(copy_budget(big, MemoryCapacity{std::nullopt, 8192 * kMiB, true}, true) == 1024 * kMiB);
  }
  SUBCASE("unknown capacities never refuse") {
    CHECK_FALSE(fit_problem(f, MemoryCapacity{}, true));
    CHECK_FALSE(fit_problem(f, MemoryCapacity{}, false));
  }
}

TEST_CASE("a rectangular region's host extent") {
  trace::Rect r;
  r.host_origin = {4, 1, 0};
  r.region = {8, 2, 1};
  r.host_row_pitch = 16;
  CHECK(host_extent(r) == (1 + 2 - 1) * 16 + 4 + 8);
  r.region = {8, 2, 3};
  r.host_slice_pitch = 64;
  CHECK(host_extent(r) == 2 * 64 + 2 * 16 + 12);
}
