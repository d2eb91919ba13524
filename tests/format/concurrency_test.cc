#include <doctest/doctest.h>

#include <set>
#include <thread>

#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "tests/format/sample_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

TEST_CASE("several threads writing records and blobs at once produce a sound trace") {
  TempDir dir;
  constexpr int kThreads = 4;
  constexpr int kPerThread = 40;
  TraceWriter::Options options;
  options.chunk_size = 4096;
  options.memory_bound = 64 * 1024;  // small, so writers really block on it
  options.workers = 2;
  std::vector<std::vector<std::pair<BlobRef, std::vector<std::byte>>>> written(kThreads);
  {
    TraceWriter writer(dir / "t.fb", options);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kPerThread; ++i) {
          // Every fourth blob repeats another thread's, to race the dedup.
          const unsigned seed =
              i % 4 == 0 ? static_cast<unsigned>(i) : static_cast<unsigned>(t * 1000 + i);
          auto data = msprof::test::pattern_bytes(1000 + static_cast<std::size_t>(i) * 500, seed);
          const BlobRef ref = writer.put_blob(data);
          Range range;
          range.id = static_cast<CaptureId>(t * 1000 + i);
          range.name = "r" + std::to_string(t) + "_" + std::to_string(i);
          range.initial_state = {{1, ref}};
          writer.write(range);
          written[t].emplace_back(ref, std::move(data));
        }
      });
    }
    for (auto& th : threads) th.join();
    writer.close();
  }
  TraceReader reader(dir / "t.fb");
  CHECK_FALSE(reader.recovered());
  const auto ranges = reader.read_all<Range>();
  CHECK(ranges.size() == kThreads * kPerThread);
  std::set<std::string> names;
  for (const auto& r : ranges) names.insert(r.name);
  CHECK(names.size() == ranges.size());
  for (const auto& per_thread : written) {
    for (const auto& [ref, data] : per_thread) CHECK(reader.read_blob(ref) == data);
  }
}
