#include "bench/format/open_bench.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "bench/format/bench_data.h"
#include "format/trace_reader.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"

namespace msprof::bench {
namespace {

using namespace msprof::trace;

constexpr std::uint64_t kBlobs = 64;
constexpr std::uint64_t kPiece = 4ull << 20;

TraceInfo bench_info() {
  TraceInfo info;
  info.schema_version = kSchemaVersion;
  info.min_reader_version = kMinReaderVersion;
  info.tool_version = kToolVersion;
  info.api = "opencl";
  return info;
}

// A range as the recorder writes one: a few commands, buffer states.
Range bench_range(unsigned i, const std::vector<BlobRef>& blobs) {
  Range range;
  range.id = 100 + i;
  range.name = "range" + std::to_string(i % 50);
  range.domain = "bench";
  range.order = i;
  range.start_ns = i * 1000ull;
  range.end_ns = range.start_ns + 900;
  const BlobRef& blob = blobs[i % blobs.size()];
  range.initial_state = {{1, blob}};
  range.final_state = {{1, blobs[(i + 1) % blobs.size()]}};
  KernelLaunch launch;
  launch.kernel = 2;
  launch.work_dim = 1;
  launch.global_size = {1024};
  launch.args = {{0, ArgKind::Buffer, 1, 0, {}, 0}};
  range.commands = {{0, 3, 0, {}, false, 1, BufferWrite{1, 0, blob.size, blob, std::nullopt}},
                    {1, 3, 4, {}, false, 2, launch},
                    {2, 3, 0, {}, true, 3, BufferRead{1, 0, 64, std::nullopt}}};
  range.objects = {1, 2, 3};
  return range;
}

void write_trace(const std::filesystem::path& path, const OpenConfig& config) {
  TraceWriter::Options options;
  options.workers = 2;
  options.compression_level = 1;  // random data: zstd stores it raw whatever the level
  TraceWriter writer(path, options);
  writer.write(bench_info());
  const std::uint64_t per_blob = std::max<std::uint64_t>(1, config.blob_bytes / kBlobs);
  std::vector<std::byte> piece(std::min(per_blob, kPiece));
  std::vector<BlobRef> blobs;
  std::uint64_t seed = 1;
  for (std::uint64_t b = 0; b < kBlobs; ++b) {
    BlobBuilder builder = writer.begin_blob();
    for (std::uint64_t done = 0; done < per_blob; done += piece.size()) {
      const std::size_t n = std::min<std::uint64_t>(piece.size(), per_blob - done);
      fill_random_bytes(std::span(piece).first(n), seed++);
      builder.append(std::span(piece).first(n));
    }
    blobs.push_back(builder.finish());
  }
  for (unsigned i = 0; i < config.ranges; ++i) writer.write(bench_range(i, blobs));
  writer.close();
}

// Writes the file back and drops it from the page cache, so the next open
// reads from the disk.
void evict(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + path.string());
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

std::size_t open_and_list(const std::filesystem::path& path) {
  const TraceReader reader(path);
  std::size_t ranges = 0;
  for (const auto& entry : reader.records()) {
    ranges += entry.type == static_cast<std::uint16_t>(FrameType::Range);
  }
  return ranges;
}

}  // namespace

OpenReport measure_open(const OpenConfig& config, const std::filesystem::path& name) {
  const std::filesystem::path path = config.dir / name;
  OpenReport report;
  const double t0 = wall_seconds();
  write_trace(path, config);
  report.write_s = wall_seconds() - t0;
  report.file_bytes = std::filesystem::file_size(path);
  {
    const TraceReader reader(path);
    report.records = reader.records().size();
    report.frames = reader.frames().size();
  }
  for (int i = 0; i < config.repetitions; ++i) {
    const double start = wall_seconds();
    const std::size_t ranges = open_and_list(path);
    report.warm_open.seconds.push_back(wall_seconds() - start);
    if (ranges != config.ranges) throw std::runtime_error("the trace lost ranges");
  }
  for (int i = 0; i < std::max(1, config.repetitions / 2); ++i) {
    evict(path);
    const double start = wall_seconds();
    open_and_list(path);
    report.cold_open.seconds.push_back(wall_seconds() - start);
  }
  for (int i = 0; i < std::max(1, config.repetitions / 2); ++i) {
    const double start = wall_seconds();
    const TraceReader reader(path);
    for (const auto& entry : reader.records()) reader.read_record(entry);
    report.decode_all.seconds.push_back(wall_seconds() - start);
  }
  std::filesystem::remove(path);
  return report;
}

}  // namespace msprof::bench
