#include "format/chunk_pipeline.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "format/byte_shuffle.h"
#include "format/plane_codec.h"
#include "format/trace_error.h"
#include "thread_name/thread_name.h"

namespace msprof::trace {

ChunkPipeline::ChunkPipeline(FileSink& sink, unsigned workers, int level,
                             unsigned min_saving_percent, std::uint64_t memory_bound)
    : sink_(sink),
      level_(level),
      min_saving_percent_(std::min(min_saving_percent, kMaxMinSavingPercent)),
      memory_bound_(memory_bound) {
  if (workers == 0) return;
  workers_running_ = workers;
  for (unsigned i = 0; i < workers; ++i) workers_.emplace_back([this] { run_worker(); });
  writer_ = std::thread([this] { run_writer(); });
}

ChunkPipeline::~ChunkPipeline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (auto& t : workers_) t.join();
  {
    std::lock_guard lock(mutex_);
    workers_running_ = 0;
  }
  write_ready_.notify_all();
  if (writer_.joinable()) writer_.join();
}

namespace {

// Enough of a chunk to tell how to code it, compressed twice (as it is, and
// as four planes): 1/32 of the chunk, 16 to 64 KiB, so a 1 MiB chunk (a
// recorded 1 MiB buffer) pays 6% for the choice rather than 12%.
constexpr std::size_t kMinSample = 16u << 10;
constexpr std::size_t kMaxSample = 64u << 10;
constexpr std::size_t kMinShuffled = 256;

// Room for whatever compress() may write for a chunk of `raw_size` bytes.
std::size_t output_bound(std::size_t raw_size) {
  return std::max(ZstdCompressor::bound(raw_size), planes_bound(raw_size));
}

enum class Coding { AsIs, Planes, Raw };

struct ChunkCoding {
  Coding coding = Coding::AsIs;
  PlaneCodings planes{};  // for Coding::Planes
  // For Coding::Planes: shuffle into the output and code the planes there
  // (encode_planes_in_place), because that copies fewer bytes.
  bool in_place = false;
};

// Bytes each way of coding planes copies, judged on the sample's sizes: in
// place, the compressed planes come back from scratch and a raw plane after
// one that shrank moves down; from a separate shuffle, every raw plane is
// copied into the output.
bool in_place_copies_less(const PlaneCodings& codings, const std::array<std::size_t, 4>& sizes,
                          std::size_t plane) {
  std::size_t in_place = 0, separate = 0;
  bool shrunk = false;
  for (std::size_t i = 0; i < 4; ++i) {
    if (codings[i] == PlaneCoding::Raw) {
      separate += plane;
      if (shrunk) in_place += plane;
    } else {
      in_place += sizes[i];
      shrunk = true;
    }
  }
  return in_place < separate;
}

// A sample compressed to more than 31/32 of itself: zstd would spend its
// time there for almost nothing (the low bytes of float data), and storing
// it raw costs a copy.
bool incompressible(std::size_t compressed, std::size_t size) {
  return compressed == 0 || compressed * 32 > size * 31;
}

// Whether `coded` bytes for a sample of `size` save the share asked for.
bool saves_enough(std::size_t coded, std::size_t size, unsigned min_saving_percent) {
  return coded != 0 && coded * 100 <= size * (100 - min_saving_percent);
}

// How to code the chunk, judged on a sample: as it is, or byte-shuffled
// with each plane zstd-compressed or stored raw, or wholly raw.
//
// Shuffled planes compress about as fast or much faster (smooth floats,
// small integers, interleaved zeros: bench/README.md, shuffle_bench), so
// they are taken unless the sample's planes come out more than 20% larger.
// A sample overstates what shuffling adds by a few points (each plane pays
// for its own tables): interleaved zeros grow less shuffled on the whole
// chunk than on the sample, and still compress faster shuffled.
// A chunk whose best coding saves less than `min_saving_percent` of it is
// stored raw.
ChunkCoding choose_coding(ZstdCompressor& compressor, std::span<const std::byte> data,
                          std::vector<std::byte>& shuffled, std::span<std::byte> out,
                          unsigned min_saving_percent) {
  std::span<const std::byte> sample = data.first(std::min(data.size(), kMinSample) / 4 * 4);
  if (data.size() >= 32 * kMinSample) {
    // Four slices from across the chunk, gathered at the end of `out`: data
    // whose start differs from the rest (a sine in float32 gets coarser as
    // its argument grows) is judged on more than its start.
    const std::size_t size = std::min(data.size() / 32, kMaxSample) / 16 * 16;
    const std::size_t slice = size / 4;
    const auto gathered = out.last(size);
    for (std::size_t k = 0; k < 4; ++k) {
      const std::size_t at = (data.size() / 4 * k) / 4 * 4;
      std::memcpy(gathered.data() + k * slice, data.data() + at, slice);
    }
    sample = gathered;
    out = out.first(out.size() - size);
  }
  const auto as_is = compressor.compress_to(sample, out);
  const bool as_is_pays = !incompressible(as_is, sample.size()) &&
                          saves_enough(as_is, sample.size(), min_saving_percent);
  // What the chunk gets when planes are not taken.
  const ChunkCoding as_is_or_raw = as_is_pays ? ChunkCoding{} : ChunkCoding{Coding::Raw, {}};
  if (data.size() % 4 != 0 || data.size() < kMinShuffled) return as_is_or_raw;
  if (shuffled.size() < data.size()) shuffled.resize(data.size());
  const auto shuffled_sample = std::span(shuffled).first(sample.size());
  shuffle4(sample, shuffled_sample);
  const std::size_t plane = sample.size() / 4;
  ChunkCoding planes{Coding::Planes, {}};
  std::array<std::size_t, 4> sizes{};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto in = shuffled_sample.subspan(i * plane, plane);
    std::size_t by_level = compressor.compress_to(in, out);
    std::size_t by_literals = compressor.compress_to(in, out, ZstdStyle::Literals);
    if (incompressible(by_level, plane)) by_level = plane;
    if (incompressible(by_literals, plane)) by_literals = plane;
    // Literals codes much faster (zstd_codec.h): it is worth up to 2% of size.
    if (by_level == plane && by_literals == plane) {
      planes.planes[i] = PlaneCoding::Raw;
      sizes[i] = plane;
    } else if (by_literals * 50 <= by_level * 51) {
      planes.planes[i] = PlaneCoding::ZstdLiterals;
      sizes[i] = by_literals;
    } else {
      planes.planes[i] = PlaneCoding::Zstd;
      sizes[i] = by_level;
    }
  }
  const std::size_t planes_size = sizes[0] + sizes[1] + sizes[2] + sizes[3];
  const bool all_raw = std::all_of(planes.planes.begin(), planes.planes.end(),
                                   [](PlaneCoding c) { return c == PlaneCoding::Raw; });
  // Planes are taken up to 20% larger than as is, for speed; where that
  // misses the saving asked for, as is may still make it.
  if (all_raw || (as_is != 0 && planes_size * 5 > as_is * 6) ||
      !saves_enough(planes_size, sample.size(), min_saving_percent)) {
    return as_is_or_raw;
  }
  planes.in_place = in_place_copies_less(planes.planes, sizes, plane);
  return planes;
}

}  // namespace

ChunkPipeline::Write ChunkPipeline::compress(ZstdCompressor& compressor, Job job,
                                             OutputBuffer output,
                                             std::vector<std::byte>& shuffled) {
  Write w;
  const std::span<std::byte> out = output.span();
  const std::span<const std::byte> data = job.bytes();
  w.header.type = static_cast<std::uint16_t>(FrameType::BlobChunk);
  w.header.raw_size = data.size();
  w.header.key = job.key;
  w.header.flags = kFrameFlagContentKeyed;
  std::size_t n = 0;
  const ChunkCoding coding = choose_coding(compressor, data, shuffled, out, min_saving_percent_);
  if (coding.coding == Coding::Planes) {
    if (coding.in_place) {
      shuffle4(data, out.subspan(kPlaneTableSize, data.size()));
      const std::size_t scratch = ZstdCompressor::bound(data.size() / 4);
      if (shuffled.size() < scratch) shuffled.resize(scratch);
      n = encode_planes_in_place(compressor, out, data.size(), coding.planes, shuffled);
    } else {
      const auto planes = std::span(shuffled).first(data.size());
      shuffle4(data, planes);
      n = encode_planes(compressor, planes, coding.planes, out);
    }
    if (n < data.size()) {
      w.header.flags |= kFrameFlagShuffle4 | kFrameFlagPlanes;
    } else {
      n = 0;
    }
  } else if (coding.coding == Coding::AsIs) {
    n = compressor.compress_to(data, out);
  }
  if (n > 0) {
    w.header.flags |= kFrameFlagZstd;
    w.header.stored_size = n;
  } else {
    w.header.stored_size = data.size();
    // Stored raw: a lent chunk stays lent until it is written.
    w.lent = job.lent;
    w.loan = std::move(job.loan);
  }
  w.raw = std::move(job.data);
  w.compressed = std::move(output);
  return w;
}

void ChunkPipeline::write(const Write& w) {
  const bool compressed = (w.header.flags & kFrameFlagZstd) != 0;
  const std::span<const std::byte> payload =
      compressed ? std::span<const std::byte>(w.compressed.span()).first(w.header.stored_size)
      : w.loan   ? w.lent
                 : std::span<const std::byte>(w.raw);
  sink_.append_frame(w.header, payload);
}

ChunkPipeline::OutputBuffer ChunkPipeline::take_output_locked(std::size_t raw_size) {
  OutputBuffer out;
  if (!free_outputs_.empty()) {
    out = std::move(free_outputs_.back());
    free_outputs_.pop_back();
  }
  // Kept at their largest size, so reusing one faults in no new pages.
  const std::size_t bound = output_bound(raw_size);
  if (out.size < bound) out = {std::make_unique_for_overwrite<std::byte[]>(bound), bound};
  return out;
}

void ChunkPipeline::give_back_output_locked(OutputBuffer out) {
  if (free_outputs_.size() < kOutputsKept) free_outputs_.push_back(std::move(out));
}

void ChunkPipeline::submit(const Hash128& key, std::vector<std::byte> data) {
  enqueue(Job{key, std::move(data), {}, nullptr});
}

void ChunkPipeline::submit_lent(const Hash128& key, std::span<const std::byte> data,
                                std::shared_ptr<LentBytes> loan) {
  enqueue(Job{key, {}, data, std::move(loan)});
}

void ChunkPipeline::enqueue(Job job) {
  if (workers_.empty()) {
    {
      std::lock_guard lock(mutex_);
      if (error_) std::rethrow_exception(error_);
    }
    ZstdCompressor compressor(level_);
    std::vector<std::byte> shuffled;
    OutputBuffer out;
    {
      std::lock_guard lock(mutex_);
      out = take_output_locked(job.bytes().size());
    }
    Write w = compress(compressor, std::move(job), std::move(out), shuffled);
    write(w);
    std::lock_guard lock(mutex_);
    stats_.raw_bytes += w.header.raw_size;
    stats_.stored_bytes += w.header.frame_size();
    stats_.chunks += 1;
    recycle_locked(std::move(w.raw));
    give_back_output_locked(std::move(w.compressed));
    return;
  }
  std::unique_lock lock(mutex_);
  const std::uint64_t size = job.bytes().size();
  // A chunk larger than the bound still goes through, alone.
  space_ready_.wait(lock, [&] {
    return error_ || bytes_in_flight_ == 0 || bytes_in_flight_ + size <= memory_bound_;
  });
  if (error_) std::rethrow_exception(error_);
  bytes_in_flight_ += size;
  queue_.push_back(std::move(job));
  lock.unlock();
  work_ready_.notify_one();
}

void ChunkPipeline::drain() {
  std::unique_lock lock(mutex_);
  space_ready_.wait(lock, [&] { return error_ || bytes_in_flight_ == 0; });
  if (error_) std::rethrow_exception(error_);
}

void ChunkPipeline::settle() {
  std::unique_lock lock(mutex_);
  space_ready_.wait(lock, [&] { return bytes_in_flight_ == 0; });
}

ChunkPipeline::Stats ChunkPipeline::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::vector<std::byte> ChunkPipeline::take_buffer() {
  std::lock_guard lock(mutex_);
  if (free_.empty()) return {};
  std::vector<std::byte> buffer = std::move(free_.back());
  free_.pop_back();
  return buffer;
}

void ChunkPipeline::recycle(std::vector<std::byte> buffer) {
  std::lock_guard lock(mutex_);
  recycle_locked(std::move(buffer));
}

void ChunkPipeline::recycle_locked(std::vector<std::byte> buffer) {
  // Enough to cover what may be in flight; beyond that memory goes back.
  if (buffer.capacity() == 0 ||
      free_.size() * buffer.capacity() >= memory_bound_ + buffer.capacity() * 2) {
    return;
  }
  buffer.clear();
  free_.push_back(std::move(buffer));
}

void ChunkPipeline::fail_locked() {
  if (!error_) error_ = std::current_exception();
}

void ChunkPipeline::run_worker() {
  name_this_thread("msprof-zstd");
  ZstdCompressor compressor(level_);
  std::vector<std::byte> shuffled;  // kept: a chunk's worth, reused
  for (;;) {
    Job job;
    OutputBuffer out;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      out = take_output_locked(job.bytes().size());
    }
    const std::uint64_t size = job.bytes().size();
    try {
      Write w = compress(compressor, std::move(job), std::move(out), shuffled);
      {
        std::lock_guard lock(mutex_);
        writes_.push_back(std::move(w));
      }
      write_ready_.notify_one();
    } catch (...) {
      {
        std::lock_guard lock(mutex_);
        fail_locked();
        bytes_in_flight_ -= size;
      }
      space_ready_.notify_all();
    }
  }
}

void ChunkPipeline::run_writer() {
  name_this_thread("msprof-write");
  for (;;) {
    Write w;
    bool failed = false;
    {
      std::unique_lock lock(mutex_);
      write_ready_.wait(lock, [&] { return workers_running_ == 0 || !writes_.empty(); });
      if (writes_.empty()) return;
      w = std::move(writes_.front());
      writes_.pop_front();
      failed = error_ != nullptr;
    }
    bool written = false;
    try {
      // After a failed write the rest is dropped: the file ends at the last
      // whole frame and stays readable.
      if (!failed) {
        write(w);
        written = true;
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      fail_locked();
    }
    // Given back before the chunk stops counting, so settle() returns only
    // once every loan is.
    w.loan.reset();
    {
      std::lock_guard lock(mutex_);
      if (written) {
        stats_.raw_bytes += w.header.raw_size;
        stats_.stored_bytes += w.header.frame_size();
        stats_.chunks += 1;
      }
      bytes_in_flight_ -= w.header.raw_size;
      recycle_locked(std::move(w.raw));
      give_back_output_locked(std::move(w.compressed));
    }
    space_ready_.notify_all();
  }
}

}  // namespace msprof::trace
