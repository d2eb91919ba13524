#include "analyzer/core/trace_repair.h"

#include <algorithm>
#include <set>

#include "analyzer/core/analyze_error.h"
#include "format/trace_writer.h"

namespace msprof::analyze {

using namespace msprof::trace;

namespace {

std::vector<BlobRef> blobs_named(const Record& record) {
  std::vector<BlobRef> out;
  if (const auto* p = std::get_if<Program>(&record)) {
    out.push_back(p->il);
    for (const auto& b : p->given_binaries) out.push_back(b.data);
    for (const auto& b : p->built_binaries) out.push_back(b.data);
  } else if (const auto* r = std::get_if<Range>(&record)) {
    for (const auto& s : r->initial_state) out.push_back(s.blob);
    for (const auto& s : r->final_state) out.push_back(s.blob);
    for (const auto& c : r->commands) {
      if (const auto* w = std::get_if<BufferWrite>(&c.body)) out.push_back(w->data);
      if (const auto* u = std::get_if<BufferUnmap>(&c.body)) out.push_back(u->data);
    }
  }
  std::erase_if(out, [](const BlobRef& b) { return !b.present(); });
  return out;
}

std::string describe(const Record& record) {
  if (const auto* r = std::get_if<Range>(&record))
    return "range " + std::to_string(r->id) + " '" + r->name + "'";
  if (const auto* p = std::get_if<Program>(&record)) return "program " + std::to_string(p->id);
  return "a record";
}

void copy_repaired(const TraceReader& reader, const std::filesystem::path& out,
                   const TraceWriter::Options& options, const std::vector<Record>& records,
                   const std::vector<BlobManifest>& manifests, RepairReport& report);

}  // namespace

RepairReport repair_trace(const TraceReader& reader, const std::filesystem::path& out) {
  std::error_code ec;
  if (std::filesystem::equivalent(reader.path(), out, ec)) {
    throw AnalyzeError("--repair would overwrite the trace it reads; name another output with -o");
  }
  RepairReport report;
  std::vector<Record> records;
  std::vector<BlobManifest> manifests;
  std::uint64_t chunk_size = 0;
  for (const auto& e : reader.frames()) {
    if (e.type == static_cast<std::uint16_t>(FrameType::BlobChunk)) continue;
    try {
      Record record = reader.read_record(e);
      if (auto* m = std::get_if<BlobManifest>(&record)) {
        chunk_size = std::max(chunk_size, m->chunk_size);
        manifests.push_back(std::move(*m));
      } else {
        records.push_back(std::move(record));
      }
    } catch (const TraceError& err) {
      report.dropped.push_back(std::string(frame_type_name(e.type)) + " frame at offset " +
                               std::to_string(e.offset) + ": " + err.what());
    }
  }
  // Records keep their order, so a trace info still comes before the ranges
  // and a later one still supersedes an earlier one.
  if (std::none_of(records.begin(), records.end(),
                   [](const Record& r) { return std::holds_alternative<TraceInfo>(r); })) {
    throw CorruptError(
        "nothing to repair: the trace info record is lost; record the program again");
  }

  TraceWriter::Options options;
  if (chunk_size > 0 && chunk_size <= kMaxChunkSize) options.chunk_size = chunk_size;
  // Written beside `out` and renamed when whole, so a failure (a full disk)
  // leaves no partial trace under its name.
  const std::filesystem::path partial = out.string() + ".partial";
  try {
    copy_repaired(reader, partial, options, records, manifests, report);
    std::filesystem::rename(partial, out);
  } catch (const std::filesystem::filesystem_error& e) {
    std::filesystem::remove(partial, ec);
    throw AnalyzeError("cannot write " + out.string() + " (" + e.code().message() +
                       "); free space there or choose another -o");
  } catch (...) {
    std::filesystem::remove(partial, ec);
    throw;
  }
  return report;
}

namespace {

// The good blobs, then the records whose blobs are all there, into `out`.
void copy_repaired(const TraceReader& reader, const std::filesystem::path& out,
                   const TraceWriter::Options& options, const std::vector<Record>& records,
                   const std::vector<BlobManifest>& manifests, RepairReport& report) {
  TraceWriter writer(out, options);
  std::set<Hash128> good_blobs;
  for (const auto& m : manifests) {
    if (good_blobs.contains(m.hash)) continue;
    const BlobRef ref{m.hash, m.size};
    try {
      reader.manifest(ref);
      // Streamed, so memory stays at a chunk; a chunk found damaged midway
      // leaves only unreferenced chunks behind, which readers ignore.
      BlobBuilder builder = writer.begin_blob();
      reader.stream_blob(ref, [&](std::span<const std::byte> piece) { builder.append(piece); });
      // The records copied below name the blob by this key.
      builder.finish_as(m.hash);
      good_blobs.insert(m.hash);
      ++report.blobs;
    } catch (const TraceError& err) {
      report.dropped.push_back("blob " + m.hash.hex() + ": " + err.what());
    }
  }
  for (const auto& record : records) {
    bool complete = true;
    for (const auto& b : blobs_named(record)) complete = complete && good_blobs.contains(b.hash);
    if (!complete) {
      report.dropped.push_back(describe(record) + ": names a blob that is missing or damaged");
      continue;
    }
    writer.write(record);
    ++report.records;
  }
  writer.close();
}

}  // namespace

}  // namespace msprof::analyze
