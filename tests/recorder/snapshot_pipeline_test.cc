#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <future>
#include <thread>
#include <vector>

#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "recorder/core/snapshot_pipeline.h"
#include "tests/support/eventually.h"
#include "tests/support/temp_dir.h"

using msprof::record::BufferPreparer;
using msprof::record::SnapshotPipeline;
using msprof::test::TempDir;

namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

std::vector<std::byte> filled(SnapshotPipeline& pipeline, std::size_t size, std::byte value) {
  auto bytes = pipeline.buffer(size);
  std::memset(bytes.data(), static_cast<int>(value), bytes.size());
  return bytes;
}

// Whether the blob behind `slot` is `size` bytes, each of them `value`.
bool blob_is(const msprof::trace::TraceReader& reader, const SnapshotPipeline::BlobSlot& slot,
             std::uint64_t size, std::byte value) {
  const auto blob = reader.read_blob(*slot);
  return blob.size() == size &&
         std::all_of(blob.begin(), blob.end(), [&](std::byte b) { return b == value; });
}

}  // namespace

TEST_CASE("snapshot buffers are recycled, and every snapshot keeps its own bytes") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 64 * kMiB, false);

  auto first = filled(pipeline, 4 * kMiB, std::byte{1});
  const std::byte* first_data = first.data();
  const auto slot1 = pipeline.snapshot(std::move(first));
  pipeline.drain();

  // The written snapshot's buffer is kept and comes back for the next one,
  // of any size it can hold.
  CHECK(pipeline.kept_bytes() == 4 * kMiB);
  auto second = filled(pipeline, 3 * kMiB, std::byte{2});
  CHECK(second.data() == first_data);
  CHECK(second.size() == 3 * kMiB);
  CHECK(pipeline.kept_bytes() == 0);
  auto third = filled(pipeline, 5 * kMiB, std::byte{3});
  const auto slot2 = pipeline.snapshot(std::move(second));
  const auto slot3 = pipeline.snapshot(std::move(third));
  pipeline.drain();
  writer.close();

  msprof::trace::TraceReader reader(dir / "t.fb");
  CHECK(blob_is(reader, slot1, 4 * kMiB, std::byte{1}));
  CHECK(blob_is(reader, slot2, 3 * kMiB, std::byte{2}));
  CHECK(blob_is(reader, slot3, 5 * kMiB, std::byte{3}));
}

TEST_CASE("the program's own bytes are copied into a recycled buffer, not a fresh one each time") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 64 * kMiB, false);
  std::vector<std::byte> host(8 * kMiB, std::byte{5});
  const auto slot1 = pipeline.snapshot_copy(host);
  pipeline.drain();
  CHECK(pipeline.kept_bytes() == 8 * kMiB);
  // The program changes its bytes after the call: the snapshot keeps them
  // as they were.
  std::fill(host.begin(), host.end(), std::byte{6});
  const auto slot2 = pipeline.snapshot_copy(host);
  pipeline.drain();
  // A fresh buffer for the second copy would leave two kept.
  CHECK(pipeline.kept_bytes() == 8 * kMiB);
  writer.close();

  msprof::trace::TraceReader reader(dir / "t.fb");
  CHECK(blob_is(reader, slot1, 8 * kMiB, std::byte{5}));
  CHECK(blob_is(reader, slot2, 8 * kMiB, std::byte{6}));
}

TEST_CASE("kept buffers and snapshots in flight stay within the memory bound") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 64 * kMiB, false);
  // Two 40 MiB snapshots cannot both be kept under a 64 MiB bound.
  auto a = filled(pipeline, 40 * kMiB, std::byte{1});
  auto b = filled(pipeline, 40 * kMiB, std::byte{2});
  const std::byte* a_data = a.data();
  const std::byte* b_data = b.data();
  pipeline.snapshot(std::move(a));
  pipeline.snapshot(std::move(b));
  pipeline.drain();
  CHECK(pipeline.kept_bytes() == 40 * kMiB);
  auto again = pipeline.buffer(40 * kMiB);
  CHECK((again.data() == a_data || again.data() == b_data));
  CHECK(pipeline.kept_bytes() == 0);
}

TEST_CASE("a buffer coming back makes room by dropping smaller kept buffers") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 64 * kMiB, false);
  pipeline.snapshot(filled(pipeline, 1 * kMiB, std::byte{1}));
  pipeline.drain();
  CHECK(pipeline.kept_bytes() == 1 * kMiB);
  auto big = filled(pipeline, 64 * kMiB, std::byte{2});
  const std::byte* big_data = big.data();
  pipeline.snapshot(std::move(big));
  pipeline.drain();
  // Keeping both would pass the bound; the large one is worth keeping.
  CHECK(pipeline.kept_bytes() == 64 * kMiB);
  CHECK(pipeline.buffer(64 * kMiB).data() == big_data);
}

TEST_CASE("at the bound, a new snapshot buffer waits for one coming back instead of a fresh one") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 128 * kMiB, false);
  std::promise<void> first_read, second_read;
  const auto first_done = first_read.get_future().share();
  const auto second_done = second_read.get_future().share();
  auto a = filled(pipeline, 64 * kMiB, std::byte{1});
  const std::byte* a_data = a.data();
  // Reads still arriving keep both snapshots in flight: 128 MiB, the bound.
  pipeline.snapshot(std::move(a), [first_done] { first_done.wait(); });
  pipeline.snapshot(filled(pipeline, 64 * kMiB, std::byte{2}),
                    [second_done] { second_done.wait(); });
  auto next = std::async(std::launch::async, [&] { return pipeline.buffer(64 * kMiB); });
  CHECK(next.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
  first_read.set_value();
  const auto reused = next.get();
  CHECK(reused.data() == a_data);
  second_read.set_value();
  pipeline.drain();
}

namespace {

// What prepare() asks for when no range has asked for anything yet.
std::function<std::vector<std::uint64_t>()> sizes(std::vector<std::uint64_t> first_range) {
  return [first_range] { return first_range; };
}

bool wait_prepared(const SnapshotPipeline& pipeline, std::size_t count) {
  return msprof::test::eventually([&] { return pipeline.prepared_ready() >= count; });
}

}  // namespace

TEST_CASE("buffers prepared ahead are what snapshots get, and keep their bytes") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 256 * kMiB, false, BufferPreparer::Priority::Normal);
  pipeline.prepare(sizes({4 * kMiB, 4 * kMiB, 2 * kMiB}));
  CHECK(pipeline.prepared_bytes() == 10 * kMiB);
  REQUIRE(wait_prepared(pipeline, 3));
  // Taken from the prepared ones (no kept buffer exists yet), best fit.
  auto small = filled(pipeline, 2 * kMiB, std::byte{7});
  CHECK(pipeline.prepared_bytes() == 8 * kMiB);
  auto large = filled(pipeline, 3 * kMiB, std::byte{8});
  CHECK(large.size() == 3 * kMiB);
  CHECK(large.capacity() == 4 * kMiB);
  CHECK(pipeline.prepared_bytes() == 4 * kMiB);
  const auto slot_small = pipeline.snapshot(std::move(small));
  const auto slot_large = pipeline.snapshot(std::move(large));
  pipeline.drain();
  // Draining ends the preparation: the one not taken is kept.
  CHECK(pipeline.prepared_bytes() == 0);
  CHECK(pipeline.kept_bytes() == 10 * kMiB);
  writer.close();

  msprof::trace::TraceReader reader(dir / "t.fb");
  CHECK(blob_is(reader, slot_small, 2 * kMiB, std::byte{7}));
  CHECK(blob_is(reader, slot_large, 3 * kMiB, std::byte{8}));
}

TEST_CASE("preparation takes at most an eighth of the memory bound") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 128 * kMiB, false, BufferPreparer::Priority::Normal);
  // 16 MiB of the 128: two of the three.
  pipeline.prepare(sizes({8 * kMiB, 8 * kMiB, 8 * kMiB}));
  CHECK(pipeline.prepared_bytes() == 16 * kMiB);
  // None of these fits at all.
  pipeline.prepare(sizes({17 * kMiB, 64 * kMiB}));
  CHECK(pipeline.prepared_bytes() == 0);
  pipeline.drain();
}

TEST_CASE("a range is prepared for what the last one asked for, less what kept buffers fit") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 256 * kMiB, false, BufferPreparer::Priority::Normal);
  // Both taken before either is snapshotted: taken after the first came
  // back, the second would be that 4 MiB buffer again.
  auto first = filled(pipeline, 4 * kMiB, std::byte{1});
  auto second = filled(pipeline, 2 * kMiB, std::byte{2});
  pipeline.snapshot(std::move(first));
  pipeline.snapshot(std::move(second));
  pipeline.drain();
  REQUIRE(pipeline.kept_bytes() == 6 * kMiB);
  // That range asked for 4 and 2 MiB, which the kept buffers fit: nothing
  // to prepare, whatever the sizes given (9 MiB would have been).
  pipeline.prepare(sizes({9 * kMiB, 9 * kMiB}));
  CHECK(pipeline.prepared_bytes() == 0);
  // This one asks for 3 MiB twice: the kept 4 MiB buffer, then a fresh one
  // (the kept 2 MiB one is too small); neither comes back.
  {
    const auto a = filled(pipeline, 3 * kMiB, std::byte{3});
    const auto b = filled(pipeline, 3 * kMiB, std::byte{4});
  }
  REQUIRE(pipeline.kept_bytes() == 2 * kMiB);
  pipeline.prepare(sizes({}));
  CHECK(pipeline.prepared_bytes() == 6 * kMiB);
  pipeline.drain();
}

TEST_CASE("snapshots still in flight count as buffers coming back") {
  TempDir dir;
  msprof::trace::TraceWriter writer(dir / "t.fb");
  SnapshotPipeline pipeline(writer, 512 * kMiB, false, BufferPreparer::Priority::Normal);
  std::promise<void> read;
  const auto done = read.get_future().share();
  pipeline.snapshot(filled(pipeline, 8 * kMiB, std::byte{2}), [done] { done.wait(); });
  {
    const auto a = filled(pipeline, 6 * kMiB, std::byte{3});
    const auto b = filled(pipeline, 12 * kMiB, std::byte{4});
  }
  // Asked for: 6, 8 and 12 MiB, 26 in all, of which the 8 in flight come
  // back: at most 18 MiB are prepared, the smallest first, so 6 and 8 MiB
  // and not 12 more.
  pipeline.prepare(sizes({}));
  CHECK(pipeline.prepared_bytes() == 14 * kMiB);
  read.set_value();
  pipeline.drain();
}

// A program's buffers, created one by one before its first range, as the
// session reports them: each one snapshotted at first use and at the end.
struct CreatedBuffers {
  explicit CreatedBuffers(SnapshotPipeline& p) : pipeline(p) {}
  SnapshotPipeline& pipeline;
  std::vector<std::uint64_t> alive;
  int looks = 0;
  void create(std::uint64_t size) {
    alive.push_back(size);
    pipeline.buffer_created(size, [this] {
      ++looks;
      std::vector<std::uint64_t> twice = alive;
      twice.insert(twice.end(), alive.begin(), alive.end());
      return twice;
    });
  }
};

// A program under the default 128 MiB bound, its pipeline writing to a
// trace of its own.
struct ProgramAt128MiB {
  TempDir dir;
  msprof::trace::TraceWriter writer{dir / "t.fb"};
  SnapshotPipeline pipeline{writer, 128 * kMiB, false, BufferPreparer::Priority::Normal};
  CreatedBuffers buffers{pipeline};
  // Prepared and kept: what is faulted in (or being) for snapshots to come.
  std::uint64_t held() const { return pipeline.prepared_bytes() + pipeline.kept_bytes(); }
};

TEST_CASE("before the first range, created buffers are prepared for once they grow by a step") {
  ProgramAt128MiB at;
  // The step is 4 MiB (a 32nd of the bound).
  for (int i = 0; i < 3; ++i) at.buffers.create(1 * kMiB);
  CHECK(at.buffers.looks == 0);
  CHECK(at.pipeline.prepared_bytes() == 0);
  at.buffers.create(1 * kMiB);
  CHECK(at.buffers.looks == 1);
  CHECK(at.pipeline.prepared_bytes() == 8 * kMiB);
  REQUIRE(wait_prepared(at.pipeline, 8));
  // Another step: what is faulted in is kept, and the new buffer prepared.
  at.buffers.create(4 * kMiB);
  CHECK(at.buffers.looks == 2);
  CHECK(at.pipeline.kept_bytes() == 8 * kMiB);
  CHECK(at.pipeline.prepared_bytes() == 8 * kMiB);
  REQUIRE(wait_prepared(at.pipeline, 2));
  // A snapshot gets one of them, not a fresh buffer.
  {
    const auto taken = filled(at.pipeline, 4 * kMiB, std::byte{1});
    CHECK(at.held() == 12 * kMiB);
  }
  at.pipeline.drain();
}

TEST_CASE("before the first range, preparation holds at most half the bound") {
  ProgramAt128MiB at;
  for (int i = 0; i < 4; ++i) {
    at.buffers.create(8 * kMiB);
    // Each look finds the last one's buffers faulted in: exact sums.
    REQUIRE(wait_prepared(at.pipeline, at.pipeline.prepared_bytes() / (8 * kMiB)));
  }
  CHECK(at.buffers.looks == 4);
  CHECK(at.held() == 64 * kMiB);
  // At the limit, more buffers are not even looked at.
  at.buffers.create(8 * kMiB);
  at.buffers.create(64 * kMiB);
  CHECK(at.buffers.looks == 4);
  CHECK(at.held() == 64 * kMiB);
  at.pipeline.drain();
}

TEST_CASE("once a range has been prepared for, created buffers prepare nothing more") {
  ProgramAt128MiB at;
  at.pipeline.prepare(sizes({}));
  at.buffers.create(32 * kMiB);
  CHECK(at.buffers.looks == 0);
  CHECK(at.pipeline.prepared_bytes() == 0);
  at.pipeline.drain();
}

TEST_CASE("buffers created in a tight loop are looked at each step, faulted in or not") {
  ProgramAt128MiB at;
  // No waiting between creations: a look cancels the one before, keeps
  // what it faulted in and asks again for the rest.
  for (int i = 0; i < 6; ++i) at.buffers.create(4 * kMiB);
  CHECK(at.buffers.looks == 6);
  CHECK(at.held() == 48 * kMiB);
  at.pipeline.drain();
}

TEST_CASE("buffers prepared before the first range are held until it starts, then go back") {
  ProgramAt128MiB at;
  at.buffers.create(8 * kMiB);
  REQUIRE(wait_prepared(at.pipeline, 2));
  // Longer than kept buffers wait once a range has started.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  CHECK(at.held() == 16 * kMiB);
  // A range that asks for none of them: they go back 2 s after it starts.
  at.pipeline.prepare(sizes({}));
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(msprof::test::eventually([&] { return at.held() == 0; }));
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(1500));
}

TEST_CASE("a buffer back from the writer goes back 2 s after the last snapshot") {
  ProgramAt128MiB at;
  at.pipeline.prepare(sizes({}));
  at.pipeline.snapshot(filled(at.pipeline, 4 * kMiB, std::byte{1}));
  at.pipeline.drain();
  REQUIRE(at.pipeline.kept_bytes() == 4 * kMiB);
  // The writer gave it back while the worker waited with nothing kept:
  // that wait must end for the idle time to start.
  REQUIRE(msprof::test::eventually([&] { return at.pipeline.kept_bytes() == 0; }));
}
