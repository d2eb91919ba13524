// Writes the fuzzer's seed traces: valid ones made with the TraceWriter, and
// copies cut short or damaged the ways real traces get hurt. Checks each seed
// reads back as expected, so a seed that silently stopped meaning what its
// name says fails the build's tests.
//
//   make_corpus OUT_DIR

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "format/frame.h"
#include "format/trace_error.h"
#include "format/trace_reader.h"
#include "format/trace_version.h"
#include "format/trace_writer.h"
#include "tests/format/sample_trace.h"

namespace {

using namespace msprof::trace;
namespace fs = std::filesystem;

using Bytes = std::vector<char>;

Bytes slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const fs::path& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void require(bool ok, const fs::path& path, const std::string& what) {
  if (!ok) throw std::runtime_error(path.filename().string() + ": " + what);
}

// Every record and blob of the sample comes back unchanged.
void check_holds_sample(const fs::path& path, const msprof::test::SampleTrace& sample,
                        bool recovered) {
  const TraceReader reader(path);
  require(reader.recovered() == recovered, path, "unexpected recovered() state");
  std::vector<Record> records;
  for (const auto& entry : reader.records()) records.push_back(reader.read_record(entry));
  require(records == sample.records, path, "records differ from the sample");
  for (const auto& blob : sample.blobs) {
    const BlobRef ref = sample.ref(blob);
    require(reader.read_blob(ref) == blob, path, "a blob differs from the sample");
  }
}

// A damaged seed must either read or refuse with a TraceError; returns true
// when the reader refused something, so a "damage" that changed nothing is noticed.
bool reads_or_refuses(const fs::path& path) {
  bool refused = false;
  try {
    const TraceReader reader(path);
    refused = reader.recovered() || !reader.warnings().empty();
    for (const auto& entry : reader.records()) {
      try {
        reader.read_record(entry);
      } catch (const TraceError&) {
        refused = true;
      }
    }
    for (const auto& entry : reader.frames()) {
      try {
        reader.read_payload(entry);
      } catch (const TraceError&) {
        refused = true;
      }
    }
  } catch (const TraceError&) {
    refused = true;
  }
  return refused;
}

Trailer trailer_of(const Bytes& bytes) {
  const auto* tail = reinterpret_cast<const std::byte*>(bytes.data() + bytes.size() - kTrailerSize);
  const auto trailer = decode_trailer(std::span(tail, kTrailerSize));
  if (!trailer) throw std::runtime_error("sample trace has no trailer");
  return *trailer;
}

// Offset of the first frame of the given type in a closed trace.
std::uint64_t first_frame(const fs::path& path, FrameType type) {
  const TraceReader reader(path);
  for (const auto& entry : reader.frames()) {
    if (entry.type == static_cast<std::uint16_t>(type)) return entry.offset;
  }
  throw std::runtime_error("sample trace has no frame of type " +
                           std::string(frame_type_name(static_cast<std::uint16_t>(type))));
}

void write_info_only(const fs::path& path) {
  TraceInfo info;
  info.schema_version = kSchemaVersion;
  info.min_reader_version = kMinReaderVersion;
  info.tool_version = kToolVersion;
  info.api = "opencl";
  TraceWriter writer(path);
  writer.write(info);
  writer.close();
}

// A float32 blob: its chunk is coded by plane, mantissa planes raw and the
// exponent plane compressed, which the sample's blobs never are.
void write_float_planes(const fs::path& path) {
  std::vector<std::byte> floats(8192);
  std::uint64_t x = 88172645463325252ull;
  for (std::size_t i = 0; i < floats.size(); i += 4) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const float f = static_cast<float>(x >> 40) * 0x1p-24f;
    std::memcpy(floats.data() + i, &f, 4);
  }
  BlobRef ref;
  {
    TraceWriter writer(path);
    ref = writer.put_blob(floats);
    writer.close();
  }
  const TraceReader reader(path);
  require(reader.read_blob(ref) == floats, path, "the float blob does not read back");
  const Bytes bytes = slurp(path);
  bool by_plane = false;
  for (const auto& entry : reader.frames()) {
    const auto header = decode_frame_header(std::as_bytes(std::span(bytes)).subspan(entry.offset));
    by_plane = by_plane || (header && (header->flags & kFrameFlagPlanes) != 0);
  }
  require(by_plane, path, "no chunk is coded by plane");
}

void make_corpus(const fs::path& out) {
  fs::create_directories(out);
  const fs::path sample = out / "valid-sample.trace";
  const auto s = msprof::test::write_sample_trace(sample);
  check_holds_sample(sample, s, false);
  const fs::path big_chunks = out / "valid-sample-chunk4k.trace";
  const auto big = msprof::test::write_sample_trace(big_chunks, 4096);
  check_holds_sample(big_chunks, big, false);

  const fs::path info_only = out / "valid-info-only.trace";
  write_info_only(info_only);
  require(TraceReader(info_only).info().api == "opencl", info_only, "info does not read back");

  write_float_planes(out / "valid-float-planes.trace");

  const fs::path empty = out / "valid-empty.trace";
  TraceWriter(empty).close();
  require(TraceReader(empty).records().empty(), empty, "empty trace holds records");

  const Bytes bytes = slurp(sample);
  const Trailer trailer = trailer_of(bytes);
  const auto cut = [&](const std::string& name, std::uint64_t size) {
    spit(out / name, Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size)));
    return out / name;
  };
  // What a killed recorder leaves: every frame whole, no index, no trailer.
  check_holds_sample(cut("no-trailer.trace", trailer.index_offset), s, true);
  // Killed in the middle of its last write.
  require(reads_or_refuses(cut("torn-index.trace", trailer.index_offset + kFrameHeaderSize + 3)),
          out / "torn-index.trace", "reads as if whole");
  require(reads_or_refuses(cut("truncated-half.trace", bytes.size() / 2)),
          out / "truncated-half.trace", "reads as if whole");
  cut("header-only.trace", kFileHeaderSize);
  require(reads_or_refuses(out / "header-only.trace"), out / "header-only.trace",
          "reads as if whole");

  const auto damage = [&](const std::string& name, std::uint64_t at, const std::string& what) {
    Bytes copy = bytes;
    copy.at(at) = static_cast<char>(copy.at(at) ^ 0x5A);
    spit(out / name, copy);
    require(reads_or_refuses(out / name), out / name, what + " damage went unnoticed");
  };
  damage("damaged-chunk-payload.trace",
         first_frame(sample, FrameType::BlobChunk) + kFrameHeaderSize + 10, "chunk payload");
  damage("damaged-range-header.trace", first_frame(sample, FrameType::Range) + 9, "range header");
  damage("damaged-manifest-payload.trace",
         first_frame(sample, FrameType::BlobManifest) + kFrameHeaderSize + 20, "manifest payload");
  damage("damaged-index-payload.trace", trailer.index_offset + kFrameHeaderSize + 30,
         "index payload");
  damage("damaged-trailer.trace", trailer.trailer_offset + 12, "trailer");
  damage("damaged-magic.trace", 2, "file magic");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_corpus OUT_DIR\n");
    return 2;
  }
  try {
    make_corpus(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_corpus: error: %s; fix the generator or the format library\n",
                 e.what());
    return 1;
  }
  return 0;
}
