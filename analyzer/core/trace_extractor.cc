#include "analyzer/core/trace_extractor.h"

#include <fstream>
#include <set>

#include "analyzer/core/analyze_error.h"
#include "analyzer/core/image_description.h"
#include "analyzer/core/npy_writer.h"
#include "analyzer/core/range_listing.h"

namespace msprof::analyze {

using namespace msprof::trace;
using nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

std::string safe_name(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
  }
  return out.empty() ? "unnamed" : out.substr(0, 80);
}

// An image's packed pixels as numpy sees them: slices (a 3D image's depth,
// a 2D array's layers), rows (height, a 1D array's layers), width, then the
// channels when there are several; axes of 1 that the type does not have
// are dropped.
std::vector<std::uint64_t> image_shape(const ImageDesc& d) {
  std::vector<std::uint64_t> shape;
  const bool has_slices = d.type == ImageType::Image3D || d.type == ImageType::Image2DArray;
  const bool has_rows =
      has_slices || d.type == ImageType::Image2D || d.type == ImageType::Image1DArray;
  if (has_slices) shape.push_back(d.slices());
  if (has_rows) shape.push_back(d.rows());
  shape.push_back(d.width);
  if (d.channels > 1) shape.push_back(d.channels);
  return shape;
}

class Extraction {
 public:
  Extraction(const TraceReader& reader, const ObjectTable& table, fs::path root, NpyDtype dtype)
      : reader_(reader), table_(table), root_(std::move(root)), dtype_(std::move(dtype)) {}

  void write_text(const fs::path& relative, const std::string& text) {
    std::ofstream out(prepare(relative), std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out)
      throw AnalyzeError("cannot write " + (root_ / relative).string() +
                         "; check the output folder");
  }

  void write_blob(const fs::path& relative, const BlobRef& blob) {
    std::ofstream out(prepare(relative), std::ios::binary | std::ios::trunc);
    reader_.stream_blob(blob, [&](std::span<const std::byte> piece) {
      out.write(reinterpret_cast<const char*>(piece.data()),
                static_cast<std::streamsize>(piece.size()));
    });
    if (!out)
      throw AnalyzeError("cannot write " + (root_ / relative).string() +
                         "; check the output folder");
  }

  // An image is written in its own element type and shape, whatever
  // --dtype says: (slices, rows, width[, channels]), the axes of one
  // dropped (see image_shape).
  ordered_json state_file(const fs::path& relative, const BlobRef& blob, const Buffer* buffer) {
    if (!blob.present()) return nullptr;
    const fs::path path = prepare(relative);
    NpyDtype dtype = dtype_;
    std::vector<std::uint64_t> shape;
    if (buffer != nullptr && buffer->image && blob.size == buffer->image->packed_size()) {
      dtype = npy_dtype(buffer->image->element_type);
      shape = image_shape(*buffer->image);
    }
    const std::uint64_t dropped = write_npy(
        path, dtype, blob.size, [&](const auto& sink) { reader_.stream_blob(blob, sink); }, shape);
    ordered_json out = {{"file", relative.generic_string()},
                        {"hash", blob.hash.hex()},
                        {"size", blob.size},
                        {"dtype", dtype.name},
                        {"elements", blob.size / dtype.size},
                        {"dropped_tail_bytes", dropped}};
    if (!shape.empty()) out["shape"] = shape;
    return out;
  }

  ordered_json program(const Program& p) {
    const fs::path dir = fs::path("programs") / ("program_" + std::to_string(p.id));
    ordered_json sources = ordered_json::array();
    for (std::size_t i = 0; i < p.sources.size(); ++i) {
      const fs::path file = dir / ("source_" + std::to_string(i) + ".cl");
      write_text(file, p.sources[i]);
      sources.push_back(file.generic_string());
    }
    ordered_json il = nullptr;
    if (p.il.present()) {
      write_blob(dir / "program.il", p.il);
      il = {{"file", (dir / "program.il").generic_string()},
            {"hash", p.il.hash.hex()},
            {"size", p.il.size}};
    }
    const auto binaries = [&](const std::vector<ProgramBinary>& list, const std::string& prefix) {
      ordered_json out = ordered_json::array();
      for (const auto& b : list) {
        if (!b.data.present()) continue;
        const fs::path file = dir / (prefix + "_device" + std::to_string(b.device) + ".bin");
        write_blob(file, b.data);
        out.push_back({{"device", b.device},
                       {"file", file.generic_string()},
                       {"hash", b.data.hash.hex()},
                       {"size", b.data.size}});
      }
      return out;
    };
    ordered_json kernels = ordered_json::array();
    for (const auto& [id, k] : table_.kernels()) {
      if (k.program == p.id) kernels.push_back({{"id", id}, {"name", k.name}});
    }
    constexpr const char* kKinds[] = {"source", "il", "binary", "built-in"};
    const auto kind = static_cast<std::size_t>(p.kind);
    return {{"id", p.id},
            {"kind", kind < 4 ? kKinds[kind] : "unknown"},
            {"build_options", p.build_options},
            {"sources", sources},
            {"il", il},
            {"given_binaries", binaries(p.given_binaries, "given")},
            {"built_binaries", binaries(p.built_binaries, "built")},
            {"kernels", kernels}};
  }

  ordered_json range(const Range& r) {
    const fs::path dir = fs::path("ranges") / (std::to_string(r.id) + "_" + safe_name(r.name));
    std::map<CaptureId, ordered_json> initial, final;
    for (const auto& s : r.initial_state) {
      initial[s.buffer] =
          state_file(dir / "initial" / ("buffer_" + std::to_string(s.buffer) + ".npy"), s.blob,
                     table_.buffer(s.buffer));
    }
    for (const auto& s : r.final_state) {
      final[s.buffer] = state_file(dir / "final" / ("buffer_" + std::to_string(s.buffer) + ".npy"),
                                   s.blob, table_.buffer(s.buffer));
    }
    std::set<CaptureId> ids;
    for (const auto& [id, j] : initial) ids.insert(id);
    for (const auto& [id, j] : final) ids.insert(id);
    ordered_json buffers = ordered_json::array();
    for (const CaptureId id : ids) {
      const Buffer* b = table_.buffer(id);
      buffers.push_back({{"buffer", id},
                         {"size", b ? ordered_json(b->size) : ordered_json(nullptr)},
                         {"image", b && b->image ? image_json(*b->image) : ordered_json(nullptr)},
                         {"initial", initial.contains(id) ? initial[id] : ordered_json(nullptr)},
                         {"final", final.contains(id) ? final[id] : ordered_json(nullptr)},
                         {"written", written_name(buffer_written(r, id))}});
    }
    ordered_json kernels = ordered_json::array();
    for (const auto& c : r.commands) {
      const auto* launch = std::get_if<KernelLaunch>(&c.body);
      if (!launch) continue;
      const Kernel* k = table_.kernel(launch->kernel);
      ordered_json args = ordered_json::array();
      for (const auto& a : launch->args) {
        if (!a.names_memory()) continue;
        // States are kept per root buffer; a sub-buffer argument points into its parent's files.
        CaptureId root = a.object;
        std::uint64_t offset = a.offset;
        for (int depth = 0; depth < 8; ++depth) {
          const Buffer* b = table_.buffer(root);
          if (!b || b->parent == 0) break;
          offset += b->origin;
          root = b->parent;
        }
        args.push_back(
            {{"index", a.index},
             {"name", k && a.index < k->arg_info.size() ? k->arg_info[a.index].name : ""},
             {"buffer", a.object},
             {"root_buffer", root},
             {"root_offset", offset},
             {"initial", initial.contains(root) ? initial[root]["file"] : ordered_json(nullptr)},
             {"final", final.contains(root) ? final[root]["file"] : ordered_json(nullptr)}});
      }
      kernels.push_back({{"seq", c.seq},
                         {"kernel", launch->kernel},
                         {"name", table_.kernel_name(launch->kernel)},
                         {"program", k ? ordered_json(k->program) : ordered_json(nullptr)},
                         {"buffer_args", args}});
    }
    return {{"id", r.id},
            {"name", r.name},
            {"status", range_status_name(r.status)},
            {"folder", dir.generic_string()},
            {"kernels", kernels},
            {"buffers", buffers}};
  }

 private:
  fs::path prepare(const fs::path& relative) {
    const fs::path path = root_ / relative;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec)
      throw AnalyzeError("cannot create " + path.parent_path().string() + " (" + ec.message() +
                         ")");
    return path;
  }

  const TraceReader& reader_;
  const ObjectTable& table_;
  fs::path root_;
  NpyDtype dtype_;
};

}  // namespace

ordered_json extract_trace(const TraceReader& reader, const ObjectTable& table,
                           const fs::path& out_dir, const ExtractOptions& options) {
  Extraction extraction(reader, table, out_dir, npy_dtype(options.dtype));
  std::vector<const Range*> ranges;
  if (options.range) {
    ranges.push_back(&table.find_range(*options.range));
  } else {
    for (const auto& r : table.ranges()) ranges.push_back(&r);
  }
  std::set<CaptureId> programs;
  for (const Range* r : ranges) {
    for (const auto& c : r->commands) {
      if (const auto* launch = std::get_if<KernelLaunch>(&c.body)) {
        if (const Kernel* k = table.kernel(launch->kernel)) programs.insert(k->program);
      }
    }
  }
  if (!options.range) {
    for (const auto& [id, p] : table.programs()) programs.insert(id);
  }
  ordered_json program_list = ordered_json::array();
  for (const CaptureId id : programs) {
    if (const Program* p = table.program(id)) program_list.push_back(extraction.program(*p));
  }
  ordered_json range_list = ordered_json::array();
  for (const Range* r : ranges) range_list.push_back(extraction.range(*r));
  ordered_json manifest = {{"format", "msprof-analyze-extract"}, {"version", 1},
                           {"trace", options.display_path},      {"dtype", options.dtype},
                           {"programs", program_list},           {"ranges", range_list}};
  extraction.write_text("manifest.json", manifest.dump(2) + "\n");
  return manifest;
}

}  // namespace msprof::analyze
