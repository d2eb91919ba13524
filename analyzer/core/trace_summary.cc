#include "analyzer/core/trace_summary.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <utility>

#include "analyzer/core/number_format.h"
#include "analyzer/core/object_table.h"
#include "printable_text/printable_text.h"

namespace msprof::analyze {

using namespace msprof::trace;
using nlohmann::ordered_json;

namespace {

// Every blob a range names: states, and data the host wrote inside it.
std::vector<BlobRef> blobs_of(const Range& range) {
  std::vector<BlobRef> out;
  for (const auto& s : range.initial_state) out.push_back(s.blob);
  for (const auto& s : range.final_state) out.push_back(s.blob);
  for (const auto& c : range.commands) {
    if (const auto* w = std::get_if<BufferWrite>(&c.body)) out.push_back(w->data);
    if (const auto* u = std::get_if<BufferUnmap>(&c.body)) out.push_back(u->data);
  }
  std::erase_if(out, [](const BlobRef& b) { return !b.present(); });
  return out;
}

double ratio(std::uint64_t captured, std::uint64_t stored) {
  return stored == 0 ? 0.0 : static_cast<double>(captured) / static_cast<double>(stored);
}

}  // namespace

TraceSummary summarize_trace(const TraceReader& reader, const std::string& display_path) {
  const ObjectTable table(reader);
  TraceSummary s;
  s.path = display_path;
  s.file_bytes = reader.file_size();
  s.recovered = reader.recovered();
  s.warnings = reader.warnings();
  s.info = table.info();
  s.contexts = table.contexts().size();
  s.programs = table.programs().size();
  s.kernels = table.kernels().size();
  s.buffers = table.buffers().size();
  s.queues = table.queues().size();
  s.samplers = table.samplers().size();

  std::unordered_map<Hash128, std::uint64_t, Hash128Hasher> chunk_frame_bytes;
  for (const auto& f : reader.frames()) {
    if (f.type == static_cast<std::uint16_t>(FrameType::BlobChunk))
      chunk_frame_bytes.emplace(f.key, f.frame_size);
  }
  std::unordered_map<Hash128, std::vector<Hash128>, Hash128Hasher> manifest_cache;
  std::set<Hash128> all_chunks;
  for (const auto& range : table.ranges()) {
    RangeSummary r;
    r.id = range.id;
    r.name = range.name;
    r.domain = range.domain;
    r.order = range.order;
    r.status = range_status_name(range.status);
    r.reason = range.status_reason;
    r.commands = range.commands.size();
    std::set<CaptureId> queues;
    for (const auto& c : range.commands) {
      if (std::holds_alternative<KernelLaunch>(c.body)) ++r.kernels;
      if (c.queue != 0) queues.insert(c.queue);
    }
    r.queues = queues.size();
    std::set<Hash128> chunks;
    std::set<Hash128> missing;
    for (const auto& blob : blobs_of(range)) {
      r.bytes_captured += blob.size;
      auto it = manifest_cache.find(blob.hash);
      if (it == manifest_cache.end()) {
        std::vector<Hash128> hashes;
        try {
          for (const auto& c : reader.manifest(blob).chunks) hashes.push_back(c.hash);
        } catch (const TraceError&) {
          missing.insert(blob.hash);
          continue;
        }
        // A damaged or recovered trace can keep a manifest whose chunk frames
        // were lost: the blob is missing, not stored.
        const bool whole = std::all_of(hashes.begin(), hashes.end(), [&](const Hash128& c) {
          return chunk_frame_bytes.contains(c);
        });
        if (!whole) {
          missing.insert(blob.hash);
          continue;
        }
        it = manifest_cache.emplace(blob.hash, std::move(hashes)).first;
      }
      chunks.insert(it->second.begin(), it->second.end());
    }
    for (const auto& c : chunks) r.bytes_stored += chunk_frame_bytes.at(c);
    r.missing_blobs = missing.size();
    all_chunks.insert(chunks.begin(), chunks.end());
    s.total_captured += r.bytes_captured;
    s.total_kernels += r.kernels;
    s.ranges.push_back(std::move(r));
  }
  for (const auto& c : all_chunks) s.total_stored += chunk_frame_bytes.at(c);
  return s;
}

namespace {

std::string status_with_reason(const RangeSummary& r) {
  return r.reason.empty() ? r.status : r.status + ": " + r.reason;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// A size as msprof-record's --memory-bound takes it, in the largest unit
// that divides it.
std::string size_option(std::uint64_t bytes) {
  for (const auto& [shift, unit] : {std::pair{30, "G"}, std::pair{20, "M"}, std::pair{10, "K"}}) {
    if (bytes % (1ull << shift) == 0) return std::to_string(bytes >> shift) + unit;
  }
  return std::to_string(bytes);
}

// The capture options as msprof-record flags, so that the same capture can
// be made again; options an older trace did not record are left out.
std::string options_as_flags(const CaptureOptions& o) {
  std::vector<std::string> flags;
  if (!o.include.empty()) flags.push_back("--include '" + join(o.include, "|") + "'");
  if (!o.exclude.empty()) flags.push_back("--exclude '" + join(o.exclude, "|") + "'");
  flags.push_back(std::string("--final-state ") + (o.final_state ? "on" : "off"));
  if (o.kill) flags.push_back("--kill on");
  if (o.compression_level > 0)
    flags.push_back("--compression-level " + std::to_string(o.compression_level));
  if (o.memory_bound > 0) flags.push_back("--memory-bound " + size_option(o.memory_bound));
  if (o.compression_threads > 0)
    flags.push_back("--compression-threads " + std::to_string(o.compression_threads));
  if (o.min_saving_percent)
    flags.push_back("--min-saving " + std::to_string(*o.min_saving_percent));
  return join(flags, " ");
}

}  // namespace

std::string summary_text(const TraceSummary& s) {
  std::string out;
  const auto line = [&](const std::string& key, const std::string& value) {
    out += pad_right(key, 13) + printable(value) + "\n";
  };
  line("trace", s.path + " (" + human_bytes(s.file_bytes) +
                    (s.recovered ? ", no index: recovered by a scan)" : ")"));
  line("recorded by", "msprof-record " + s.info.tool_version + ", schema " +
                          std::to_string(s.info.schema_version) + " (readers from " +
                          std::to_string(s.info.min_reader_version) + ")");
  line("created", iso_time_utc(s.info.created_unix_ns));
  line("host", s.info.host + ", pid " + std::to_string(s.info.pid));
  line("command", join(s.info.command_line, " "));
  line("api", s.info.api);
  line("options", options_as_flags(s.info.options));
  for (std::size_t i = 0; i < s.info.devices.size(); ++i) {
    const auto& d = s.info.devices[i];
    line("device " + std::to_string(i),
         d.device_name + " (" + d.vendor + ", " + d.device_type + "), " + d.platform_name +
             ", driver " + d.driver_version + ", " + std::to_string(d.compute_units) + " CU, " +
             human_bytes(d.global_mem_bytes));
  }
  line("objects", std::to_string(s.contexts) + " contexts, " + std::to_string(s.programs) +
                      " programs, " + std::to_string(s.kernels) + " kernels, " +
                      std::to_string(s.buffers) + " buffers, " + std::to_string(s.queues) +
                      " queues, " + std::to_string(s.samplers) + " samplers");
  out += "\n";

  std::vector<std::vector<std::string>> rows = {
      {"id", "range", "status", "kernels", "queues", "captured", "stored"}};
  for (const auto& r : s.ranges) {
    std::string status = status_with_reason(r);
    if (r.missing_blobs) status += " (" + std::to_string(r.missing_blobs) + " blobs missing)";
    rows.push_back({std::to_string(r.id), printable(r.name), printable(status),
                    std::to_string(r.kernels), std::to_string(r.queues),
                    human_bytes(r.bytes_captured), human_bytes(r.bytes_stored)});
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string text;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool numeric = i == 0 || i >= 3;
      text +=
          (i ? "  " : "") + (numeric ? pad_left(row[i], width[i]) : pad_right(row[i], width[i]));
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  out += "\ntotal        " + std::to_string(s.ranges.size()) + " ranges, " +
         std::to_string(s.total_kernels) + " kernels, " + human_bytes(s.total_captured) +
         " captured, " + human_bytes(s.total_stored) + " stored, compression " +
         (s.total_stored == 0 ? std::string("-")
                              : fixed(ratio(s.total_captured, s.total_stored), 2) + "x") +
         "\n";
  return out;
}

ordered_json trace_info_json(const TraceInfo& info) {
  ordered_json devices = ordered_json::array();
  for (const auto& d : info.devices) {
    devices.push_back({{"platform", d.platform_name},
                       {"platform_version", d.platform_version},
                       {"name", d.device_name},
                       {"vendor", d.vendor},
                       {"driver", d.driver_version},
                       {"version", d.device_version},
                       {"type", d.device_type},
                       {"compute_units", d.compute_units},
                       {"global_mem_bytes", d.global_mem_bytes},
                       {"local_mem_bytes", d.local_mem_bytes},
                       {"global_cache_bytes", d.global_cache_bytes},
                       {"cacheline_bytes", d.cacheline_bytes},
                       {"max_clock_mhz", d.max_clock_mhz},
                       {"max_work_group_size", d.max_work_group_size},
                       {"address_bits", d.address_bits}});
  }
  return {{"tool_version", info.tool_version},
          {"schema_version", info.schema_version},
          {"min_reader_version", info.min_reader_version},
          {"created", iso_time_utc(info.created_unix_ns)},
          {"created_unix_ns", info.created_unix_ns},
          {"host", info.host},
          {"pid", info.pid},
          {"command_line", info.command_line},
          {"api", info.api},
          {"options",
           {{"include", info.options.include},
            {"exclude", info.options.exclude},
            {"final_state", info.options.final_state},
            {"kill", info.options.kill},
            {"compression_level", info.options.compression_level},
            {"memory_bound", info.options.memory_bound},
            {"compression_threads", info.options.compression_threads},
            {"min_saving_percent", info.options.min_saving_percent
                                       ? ordered_json(*info.options.min_saving_percent)
                                       : ordered_json(nullptr)}}},
          {"devices", devices}};
}

ordered_json summary_json(const TraceSummary& s) {
  ordered_json ranges = ordered_json::array();
  for (const auto& r : s.ranges) {
    ranges.push_back({{"id", r.id},
                      {"name", r.name},
                      {"domain", r.domain},
                      {"order", r.order},
                      {"status", r.status},
                      {"reason", r.reason},
                      {"commands", r.commands},
                      {"kernels", r.kernels},
                      {"queues", r.queues},
                      {"bytes_captured", r.bytes_captured},
                      {"bytes_stored", r.bytes_stored},
                      {"missing_blobs", r.missing_blobs}});
  }
  return {{"format", "msprof-analyze-info"},
          {"version", 1},
          {"trace",
           {{"path", s.path},
            {"file_bytes", s.file_bytes},
            {"recovered", s.recovered},
            {"warnings", s.warnings}}},
          {"info", trace_info_json(s.info)},
          {"objects",
           {{"contexts", s.contexts},
            {"programs", s.programs},
            {"kernels", s.kernels},
            {"buffers", s.buffers},
            {"queues", s.queues},
            {"samplers", s.samplers}}},
          {"ranges", ranges},
          {"totals",
           {{"ranges", s.ranges.size()},
            {"kernels", s.total_kernels},
            {"bytes_captured", s.total_captured},
            {"bytes_stored", s.total_stored},
            {"compression_ratio", ratio(s.total_captured, s.total_stored)}}}};
}

}  // namespace msprof::analyze
