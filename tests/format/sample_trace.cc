#include "tests/format/sample_trace.h"

#include <random>

#include "format/hash128.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"

namespace msprof::test {

using namespace msprof::trace;

std::vector<std::byte> pattern_bytes(std::size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::byte> out(size);
  for (auto& b : out) b = static_cast<std::byte>(rng() & 0xff);
  return out;
}

BlobRef SampleTrace::ref(const std::vector<std::byte>& blob) const {
  return {blob_key_of_content(blob, chunk_size), blob.size()};
}

SampleTrace make_sample_records(std::size_t chunk_size) {
  SampleTrace s;
  s.chunk_size = chunk_size;
  s.blobs = {pattern_bytes(3000, 1), pattern_bytes(5000, 2), pattern_bytes(700, 3),
             std::vector<std::byte>(4096, std::byte{0})};
  const BlobRef a = s.ref(s.blobs[0]), b = s.ref(s.blobs[1]), c = s.ref(s.blobs[2]),
                zeros = s.ref(s.blobs[3]);

  TraceInfo info;
  info.schema_version = kSchemaVersion;
  info.min_reader_version = kMinReaderVersion;
  info.tool_version = kToolVersion;
  info.created_unix_ns = 1'700'000'000'123'456'789ull;
  info.host = "testhost";
  info.command_line = {"python3", "test.py", "--flag"};
  info.pid = 4242;
  info.api = "opencl";
  info.options.include = {"range1", "range2"};
  info.options.exclude = {"warmup"};
  info.options.kill = true;
  info.options.compression_level = 5;
  info.options.memory_bound = 1ull << 33;
  info.options.compression_threads = 3;
  info.options.min_saving_percent = 40;
  DeviceInfo dev;
  dev.platform_name = "Portable Computing Language";
  dev.platform_version = "OpenCL 3.0 PoCL";
  dev.device_name = "cpu-skylake";
  dev.vendor = "GenuineIntel";
  dev.driver_version = "3.1";
  dev.device_version = "OpenCL 3.0";
  dev.device_type = "CPU";
  dev.compute_units = 2;
  dev.global_mem_bytes = 24ull << 30;
  dev.local_mem_bytes = 4ull << 20;
  dev.global_cache_bytes = 32ull << 20;
  dev.cacheline_bytes = 64;
  dev.max_clock_mhz = 2400;
  dev.max_work_group_size = 4096;
  dev.address_bits = 64;
  info.devices = {dev, dev};
  info.devices[1].device_name = "second";
  s.records.push_back(info);

  s.records.push_back(Context{1, {0, 1}});
  Program program;
  program.id = 2;
  program.context = 1;
  program.kind = ProgramKind::Source;
  program.sources = {"__kernel void k(__global float* x) { x[0] = 1; }", "// part two"};
  program.il = c;
  program.given_binaries = {{1, a}};
  program.build_options = "-cl-fast-relaxed-math -DN=4";
  program.built_binaries = {{0, b}, {1, a}};
  program.devices = {0, 1};
  program.kernel_names = "k;j";
  s.records.push_back(program);
  Kernel kernel{
      3, 2, "k", 4, {{"x", "float*", 0x119B, 0x11A3, 1}, {"n", "int", 0x119E, 0x11A3, 0}}};
  s.records.push_back(kernel);
  s.records.push_back(Buffer{4, 1, 0x1, 1ull << 40, 0, 0, std::nullopt});
  s.records.push_back(Buffer{5, 1, 0x4, 512, 4, 1024, 0xdead'beef'0000ull});
  s.records.push_back(
      Buffer{9, 1, 0x401, 4096, 0, 0, 0x7f00'1234'5600ull, MemoryKind::Pointer, 128});
  Buffer image{10, 1, 0x4, 64 * 48 * 16, 0, 0, std::nullopt, MemoryKind::Image, 0};
  image.image =
      ImageDesc{ImageType::Image2DArray, 64, 48, 1, 3, 0x10B5, 0x10DE, 16, 4, "float32", 0, 0};
  s.records.push_back(image);
  s.records.push_back(Queue{6, 1, 1, 0x3, true, true});
  s.records.push_back(Sampler{7, 1, true, 0x1132, 0x1141});

  Range range;
  range.id = 8;
  range.name = "range1";
  range.domain = "default";
  range.order = 3;
  range.thread_id = 77;
  range.stream = 0x5555;
  range.start_ns = 10;
  range.end_ns = 20;
  range.status = RangeStatus::NotReplayable;
  range.status_reason = "clEnqueueSVMMap";
  KernelLaunch launch;
  launch.kernel = 3;
  launch.work_dim = 3;
  launch.global_offset = {0, 1, 2};
  launch.global_size = {1024, 2, 3};
  launch.local_size = {64, 1, 1};
  launch.args = {{0, ArgKind::Buffer, 5, 16, {}, 0},
                 {1, ArgKind::Bytes, 0, 0, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 0},
                 {2, ArgKind::Local, 0, 0, {}, 4096},
                 {3, ArgKind::Sampler, 7, 0, {}, 0},
                 {4, ArgKind::Null, 0, 0, {}, 0},
                 {5, ArgKind::Unset, 0, 0, {}, 0},
                 {6, ArgKind::Pointer, 9, 48, {}, 0},
                 {7, ArgKind::Pointer, 0, 0, {}, 0}};
  launch.indirect = {{0, ArgKind::Pointer, 9, 0, {}, 0}};
  Rect rect{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, 10, 11, 12, 13};
  range.commands = {
      {0, 6, 100, {}, false, 1, launch},
      {1, 6, 101, {100}, true, 2, BufferWrite{4, 8, 3000, a, std::nullopt}},
      {2, 6, 0, {}, true, 3, BufferWrite{4, 0, 700, c, rect}},
      {3, 6, 102, {101, 100}, false, 4, BufferRead{4, 0, 64, std::nullopt}},
      {4, 6, 0, {}, false, 5, BufferRead{4, 0, 64, rect}},
      {5, 6, 0, {}, false, 6, BufferCopy{4, 5, 0, 8, 128, std::nullopt}},
      {6, 6, 0, {}, false, 7, BufferCopy{4, 5, 0, 0, 0, rect}},
      {7, 6, 0, {}, false, 8, BufferFill{4, {0xAB, 0xCD, 0xEF, 0x01}, 0, 4096}},
      {8, 6, 103, {}, true, 9, BufferMap{4, 0x2, 0, 4096}},
      {9, 6, 0, {103}, false, 10, BufferUnmap{4, 8, 0, 4096, zeros}},
      {10, 6, 104, {}, false, 11, Marker{}},
      {11, 6, 105, {104}, false, 12, Barrier{}},
      // An image's commands: rects on fills, maps and unmaps.
      {12, 6, 0, {}, false, 13, BufferFill{10, std::vector<std::uint8_t>(16, 0x3f), 0, 700, rect}},
      {13, 6, 106, {}, true, 14, BufferMap{10, 0x2, 0, 700, rect}},
      {14, 6, 0, {106}, false, 15, BufferUnmap{10, 13, 0, 700, c, rect}},
      {15, 0, 0, {}, true, 16, HostWait{{104, 105}}},
  };
  range.initial_state = {{4, a}, {5, zeros}};
  range.final_state = {{4, b}, {5, zeros}};
  range.timings = {{0, 1, 2, 3, 4}, {1, 5, 6, 7, 8}};
  range.objects = {1, 2, 3, 4, 5, 6, 7};
  s.records.push_back(range);
  Range ignored;
  ignored.id = 9;
  ignored.name = "range3";
  ignored.status = RangeStatus::Ignored;
  ignored.status_reason = "opened inside range2";
  s.records.push_back(ignored);
  return s;
}

SampleTrace write_sample_trace(const std::filesystem::path& path, std::size_t chunk_size) {
  SampleTrace s = make_sample_records(chunk_size);
  TraceWriter::Options options;
  options.chunk_size = chunk_size;
  options.workers = 1;
  TraceWriter writer(path, options);
  for (const auto& blob : s.blobs) writer.put_blob(blob);
  for (const auto& record : s.records) writer.write(record);
  writer.close();
  return s;
}

}  // namespace msprof::test
