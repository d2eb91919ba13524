#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>

#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "tests/format/sample_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

namespace {

// Bytes zstd cannot shrink, so their chunks are stored raw: written from
// the lent bytes themselves rather than from a compressed copy.
std::vector<std::byte> noise_bytes(std::size_t size, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::byte> out(size);
  for (auto& b : out) b = static_cast<std::byte>(rng());
  return out;
}

// The blob's bytes are overwritten the moment the writer gives them back,
// so any read after release() would put the wrong bytes in the trace.
struct PoisonedLoan {
  std::vector<std::byte> bytes;
  std::atomic<int> releases{0};

  std::function<void()> release() {
    return [this] {
      std::fill(bytes.begin(), bytes.end(), std::byte{0xEE});
      releases.fetch_add(1);
    };
  }
};

}  // namespace

TEST_CASE("a lent blob is read in place and given back once, before flush returns") {
  for (const unsigned workers : {0u, 1u, 2u}) {
    for (const bool noise : {false, true}) {
      CAPTURE(workers);
      CAPTURE(noise);
      TempDir dir;
      TraceWriter::Options options;
      options.workers = workers;
      options.chunk_size = 64u << 10;
      options.memory_bound = 128u << 10;  // the writer waits for chunks as it lends more
      const auto original =
          noise ? noise_bytes(1u << 20, 3) : msprof::test::pattern_bytes(1u << 20, 3);
      PoisonedLoan loan{original};
      BlobRef ref;
      {
        TraceWriter writer(dir / "t.fb", options);
        ref = writer.lend_blob(loan.bytes, loan.release());
        writer.flush();
        CHECK(loan.releases.load() == 1);
        CHECK(loan.bytes.front() == std::byte{0xEE});
        writer.close();
      }
      CHECK(loan.releases.load() == 1);
      CHECK(ref.size == original.size());
      TraceReader reader(dir / "t.fb");
      CHECK(reader.read_blob(ref) == original);
    }
  }
}

TEST_CASE("lend_blob and put_blob name the same bytes the same blob, stored once") {
  for (const std::size_t size : {std::size_t{0}, std::size_t{1000}, std::size_t{4096},
                                 std::size_t{4097}, std::size_t{3 * 4096 + 5}}) {
    CAPTURE(size);
    TempDir dir;
    TraceWriter::Options options;
    options.chunk_size = 4096;
    const auto data = msprof::test::pattern_bytes(size, 11);
    PoisonedLoan loan{data};
    BlobRef put, lent, built;
    {
      TraceWriter writer(dir / "t.fb", options);
      put = writer.put_blob(data);
      lent = writer.lend_blob(loan.bytes, loan.release());
      // Everything was a duplicate: nothing was queued, so the bytes are
      // back before lend_blob returns.
      CHECK(loan.releases.load() == 1);
      auto builder = writer.begin_blob();
      for (std::size_t at = 0; at < size; at += 777)
        builder.append(std::span(data).subspan(at, std::min<std::size_t>(777, size - at)));
      built = builder.finish();
      const auto stats = writer.stats();
      CHECK(stats.blob_bytes == 3 * size);
      CHECK(stats.unique_chunk_bytes == size);
      writer.close();
    }
    CHECK(put == lent);
    CHECK(put == built);
    CHECK(put.size == size);
    TraceReader reader(dir / "t.fb");
    CHECK(reader.read_blob(put) == data);
  }
}

TEST_CASE("a lent blob's release runs when lend_blob fails on a closed writer") {
  TempDir dir;
  const auto data = msprof::test::pattern_bytes(10000, 5);
  PoisonedLoan loan{data};
  TraceWriter writer(dir / "t.fb");
  writer.close();
  CHECK_THROWS_AS(writer.lend_blob(loan.bytes, loan.release()), TraceError);
  CHECK(loan.releases.load() == 1);
  writer.wait_for_loans();
}
