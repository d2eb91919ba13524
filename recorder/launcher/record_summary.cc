#include "recorder/launcher/record_summary.h"

#include <cstdio>
#include <ostream>
#include <set>
#include <string>
#include <unordered_set>

#include "format/trace_reader.h"
#include "printable_text/printable_text.h"

namespace msprof::record {
namespace {

std::string bytes_text(std::uint64_t n) {
  char buf[64];
  if (n >= (1ull << 30)) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(n) / (1ull << 30));
  } else if (n >= (1ull << 20)) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(n) / (1ull << 20));
  } else if (n >= (1ull << 10)) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(n) / (1ull << 10));
  } else {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(n));
  }
  return buf;
}

}  // namespace

void print_summary(std::ostream& out, const std::filesystem::path& path,
                   const CaptureStats& stats) {
  trace::TraceReader reader(path);
  std::unordered_map<trace::Hash128, std::uint64_t, trace::Hash128Hasher> chunk_sizes;
  for (const auto& f : reader.frames()) {
    if (f.type == static_cast<std::uint16_t>(trace::FrameType::BlobChunk))
      chunk_sizes[f.key] = f.frame_size;
  }
  const auto ranges = reader.read_all<trace::Range>();
  const auto kernels = reader.read_all<trace::Kernel>();
  std::unordered_map<trace::CaptureId, std::string> kernel_names;
  for (const auto& k : kernels) kernel_names[k.id] = k.name;

  out << "msprof-record: " << ranges.size() << " range(s) in " << path.string() << "\n";
  for (const auto& range : ranges) {
    std::vector<trace::BlobRef> blobs;
    for (const auto& s : range.initial_state) blobs.push_back(s.blob);
    for (const auto& s : range.final_state) blobs.push_back(s.blob);
    for (const auto& c : range.commands) {
      if (const auto* w = std::get_if<trace::BufferWrite>(&c.body)) blobs.push_back(w->data);
      if (const auto* u = std::get_if<trace::BufferUnmap>(&c.body); u && u->data.present())
        blobs.push_back(u->data);
    }
    std::uint64_t captured = 0, stored = 0;
    std::unordered_set<trace::Hash128, trace::Hash128Hasher> seen;
    for (const auto& b : blobs) {
      captured += b.size;
      if (!reader.has_blob(b)) continue;
      for (const auto& chunk : reader.manifest(b).chunks) {
        if (seen.insert(chunk.hash).second && chunk_sizes.contains(chunk.hash))
          stored += chunk_sizes[chunk.hash];
      }
    }
    std::string names;
    std::size_t launches = 0;
    for (const auto& c : range.commands) {
      if (const auto* k = std::get_if<trace::KernelLaunch>(&c.body)) {
        if (launches++ < 8)
          names += (names.empty() ? "" : ", ") + printable(kernel_names[k->kernel]);
      }
    }
    if (launches > 8) names += ", ...";
    out << "  " << printable(range.name) << ": " << trace::range_status_name(range.status);
    if (!range.status_reason.empty()) out << " (" << printable(range.status_reason) << ")";
    if (range.status != trace::RangeStatus::Ignored) {
      out << ", " << launches << " kernel(s)" << (names.empty() ? "" : " [" + names + "]") << ", "
          << range.commands.size() << " command(s), " << bytes_text(captured) << " captured, "
          << bytes_text(stored) << " stored";
    }
    out << "\n";
  }
  out << "msprof-record: trace size " << bytes_text(reader.file_size());
  if (stats.known) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.1f", static_cast<double>(stats.capture_ns) / 1e6);
    out << ", " << bytes_text(stats.snapshot_bytes) << " snapshotted, " << ms
        << " ms spent capturing in the program";
  }
  out << "\n";
  if (reader.info().api == "none") {
    out << "msprof-record: warning: the program made no OpenCL call, so the trace holds no device "
           "work to replay; "
        << (ranges.empty() ? "it also marked no mstx or NVTX range"
                           : "its ranges are kept for msprof-analyze")
        << "\n";
  }
}

}  // namespace msprof::record
