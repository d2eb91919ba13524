#include "analyzer/core/range_listing.h"

#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "analyzer/core/argument_value.h"
#include "analyzer/core/image_description.h"
#include "analyzer/core/number_format.h"
#include "printable_text/printable_text.h"

namespace msprof::analyze {

using namespace msprof::trace;
using nlohmann::ordered_json;

namespace {

std::string list(const std::vector<std::uint64_t>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

const char* arg_kind_name(ArgKind kind) {
  switch (kind) {
    case ArgKind::Unset:
      return "unset";
    case ArgKind::Buffer:
      return "buffer";
    case ArgKind::Bytes:
      return "bytes";
    case ArgKind::Local:
      return "local";
    case ArgKind::Sampler:
      return "sampler";
    case ArgKind::Null:
      return "null";
    case ArgKind::Pointer:
      return "pointer";
  }
  return "unknown";
}

const char* command_name(const CommandBody& body) {
  constexpr const char* kNames[] = {"kernel", "write", "read",   "copy",    "fill",
                                    "map",    "unmap", "marker", "barrier", "host-wait"};
  return kNames[body.index()];
}

const KernelArgInfo* arg_info(const Kernel* kernel, std::uint32_t index) {
  if (kernel == nullptr || index >= kernel->arg_info.size()) return nullptr;
  return &kernel->arg_info[index];
}

std::optional<std::uint64_t> buffer_size(const ObjectTable& table, CaptureId id) {
  const Buffer* b = table.buffer(id);
  return b ? std::optional<std::uint64_t>(b->size) : std::nullopt;
}

// "buffer 3", or "allocation 3" for memory addressed by pointer.
std::string memory_name(const ObjectTable& table, CaptureId id) {
  const Buffer* b = table.buffer(id);
  if (b != nullptr && b->is_image()) return "image " + std::to_string(id);
  return (b != nullptr && b->is_pointer() ? "allocation " : "buffer ") + std::to_string(id);
}

// memory_name, with the address an allocation had: "allocation 3 @0x7f...".
std::string memory_label(const ObjectTable& table, CaptureId id) {
  const Buffer* b = table.buffer(id);
  if (b != nullptr && b->image) return "image " + std::to_string(id) + " " + image_text(*b->image);
  if (b == nullptr || !b->is_pointer()) return "buffer " + std::to_string(id);
  std::string out = "allocation " + std::to_string(id);
  if (b->device_address) {
    char at[32];
    std::snprintf(at, sizeof at, " @0x%llx", static_cast<unsigned long long>(*b->device_address));
    out += at;
  }
  return out;
}

std::string memory_kind_name(const ObjectTable& table, CaptureId id) {
  const Buffer* b = table.buffer(id);
  if (b != nullptr && b->is_image()) return "image";
  return b != nullptr && b->is_pointer() ? "pointer" : "buffer";
}

std::string blob_text(const BlobRef& blob) {
  return blob.present() ? human_bytes(blob.size) + " " + blob.hash.hex().substr(0, 12) : "-";
}

std::string arg_text(const ObjectTable& table, const Kernel* kernel, const KernelArg& arg) {
  std::string out = "arg " + std::to_string(arg.index);
  if (const KernelArgInfo* info = arg_info(kernel, arg.index))
    out += " " + printable(info->name) + " (" + printable(info->type_name) + ")";
  out += ": ";
  switch (arg.kind) {
    case ArgKind::Buffer: {
      out += memory_name(table, arg.object);
      if (arg.offset) out += " + " + std::to_string(arg.offset);
      const auto size = buffer_size(table, arg.object);
      out += size ? " (" + human_bytes(*size) + ")" : " (no buffer record)";
      break;
    }
    case ArgKind::Bytes: {
      const KernelArgInfo* info = arg_info(kernel, arg.index);
      const auto typed = info ? typed_scalar(info->type_name, arg.bytes) : std::nullopt;
      out += typed ? *typed
                   : hex_bytes(arg.bytes) + " (" + std::to_string(arg.bytes.size()) + " bytes)";
      break;
    }
    case ArgKind::Local:
      out += "local " + human_bytes(arg.local_size);
      break;
    case ArgKind::Sampler:
      out += "sampler " + std::to_string(arg.object);
      break;
    case ArgKind::Null:
      out += "NULL";
      break;
    case ArgKind::Pointer: {
      if (arg.object == 0) {
        out += "pointer NULL";
        break;
      }
      out += "pointer into " + std::to_string(arg.object);
      if (arg.offset) out += " + " + std::to_string(arg.offset);
      const auto size = buffer_size(table, arg.object);
      out += size ? " (" + human_bytes(*size) + ")" : " (no allocation record)";
      break;
    }
    case ArgKind::Unset:
      out += "not set";
      break;
  }
  return out;
}

std::string body_text(const ObjectTable& table, const CommandBody& body) {
  return std::visit(
      [&](const auto& c) -> std::string {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, KernelLaunch>) {
          const Kernel* k = table.kernel(c.kernel);
          std::string out = "kernel " + printable(table.kernel_name(c.kernel)) + " (kernel " +
                            std::to_string(c.kernel);
          if (k) out += ", program " + std::to_string(k->program);
          out += ")\n      global " + list(c.global_size) + "  local " +
                 (c.local_size.empty() ? std::string("driver's choice") : list(c.local_size));
          if (!c.global_offset.empty()) out += "  offset " + list(c.global_offset);
          for (const auto& arg : c.args) out += "\n      " + arg_text(table, k, arg);
          for (const auto& arg : c.indirect) {
            out += "\n      indirect: pointer into " + std::to_string(arg.object);
            if (arg.offset) out += " + " + std::to_string(arg.offset);
          }
          return out;
        } else if constexpr (std::is_same_v<T, BufferWrite>) {
          return "write " + memory_name(table, c.buffer) + " [" + std::to_string(c.offset) + ", +" +
                 std::to_string(c.size) + ")" + (c.rect ? " rect" : "") + " data " +
                 blob_text(c.data);
        } else if constexpr (std::is_same_v<T, BufferRead>) {
          return "read " + memory_name(table, c.buffer) + " [" + std::to_string(c.offset) + ", +" +
                 std::to_string(c.size) + ")" + (c.rect ? " rect" : "");
        } else if constexpr (std::is_same_v<T, BufferCopy>) {
          return "copy " + memory_name(table, c.src) + " [" + std::to_string(c.src_offset) +
                 "] -> " + memory_name(table, c.dst) + " [" + std::to_string(c.dst_offset) + "], " +
                 std::to_string(c.size) + " bytes" + (c.rect ? " rect" : "");
        } else if constexpr (std::is_same_v<T, BufferFill>) {
          return "fill " + memory_name(table, c.buffer) + " [" + std::to_string(c.offset) + ", +" +
                 std::to_string(c.size) + ") pattern " + hex_bytes(c.pattern);
        } else if constexpr (std::is_same_v<T, BufferMap>) {
          return "map " + memory_name(table, c.buffer) + " [" + std::to_string(c.offset) + ", +" +
                 std::to_string(c.size) + ") flags " + hex_u64(c.flags);
        } else if constexpr (std::is_same_v<T, BufferUnmap>) {
          const std::string map = c.map_seq == kMappedBeforeRange
                                      ? "mapped before the range"
                                      : "map #" + std::to_string(c.map_seq);
          return "unmap " + memory_name(table, c.buffer) + " (" + map + ") [" +
                 std::to_string(c.offset) + ", +" + std::to_string(c.size) + ") data " +
                 blob_text(c.data);
        } else if constexpr (std::is_same_v<T, HostWait>) {
          std::string out = "host wait";
          for (const auto e : c.events) out += " " + std::to_string(e);
          return out;
        } else if constexpr (std::is_same_v<T, Marker>) {
          return "marker";
        } else {
          return "barrier";
        }
      },
      body);
}

ordered_json blob_json(const BlobRef& blob) {
  if (!blob.present()) return nullptr;
  return {{"hash", blob.hash.hex()}, {"size", blob.size}};
}

ordered_json rect_json(const std::optional<Rect>& rect) {
  if (!rect) return nullptr;
  return {{"buffer_origin", rect->buffer_origin},
          {"host_origin", rect->host_origin},
          {"region", rect->region},
          {"buffer_row_pitch", rect->buffer_row_pitch},
          {"buffer_slice_pitch", rect->buffer_slice_pitch},
          {"host_row_pitch", rect->host_row_pitch},
          {"host_slice_pitch", rect->host_slice_pitch}};
}

ordered_json arg_json(const ObjectTable& table, const Kernel* kernel, const KernelArg& arg) {
  ordered_json out = {{"index", arg.index}, {"kind", arg_kind_name(arg.kind)}};
  const KernelArgInfo* info = arg_info(kernel, arg.index);
  if (info) {
    out["name"] = info->name;
    out["type"] = info->type_name;
  }
  switch (arg.kind) {
    case ArgKind::Buffer:
    case ArgKind::Pointer: {
      // A null pointer names no allocation: buffer 0.
      out["buffer"] = arg.object;
      out["offset"] = arg.offset;
      const auto size = buffer_size(table, arg.object);
      out["buffer_size"] = size ? ordered_json(*size) : ordered_json(nullptr);
      break;
    }
    case ArgKind::Bytes: {
      out["bytes"] = hex_bytes(arg.bytes);
      const auto typed = info ? typed_scalar(info->type_name, arg.bytes) : std::nullopt;
      out["value"] = typed ? ordered_json(*typed) : ordered_json(nullptr);
      break;
    }
    case ArgKind::Local:
      out["local_size"] = arg.local_size;
      break;
    case ArgKind::Sampler:
      out["sampler"] = arg.object;
      break;
    case ArgKind::Null:
    case ArgKind::Unset:
      break;
  }
  return out;
}

ordered_json body_json(const ObjectTable& table, const CommandBody& body) {
  return std::visit(
      [&](const auto& c) -> ordered_json {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, KernelLaunch>) {
          const Kernel* k = table.kernel(c.kernel);
          ordered_json args = ordered_json::array();
          for (const auto& arg : c.args) args.push_back(arg_json(table, k, arg));
          ordered_json out = {{"kernel", c.kernel},
                              {"name", table.kernel_name(c.kernel)},
                              {"program", k ? ordered_json(k->program) : ordered_json(nullptr)},
                              {"work_dim", c.work_dim},
                              {"global_offset", c.global_offset},
                              {"global_size", c.global_size},
                              {"local_size", c.local_size},
                              {"args", args}};
          if (!c.indirect.empty()) {
            ordered_json indirect = ordered_json::array();
            for (const auto& arg : c.indirect)
              indirect.push_back({{"buffer", arg.object}, {"offset", arg.offset}});
            out["indirect"] = std::move(indirect);
          }
          return out;
        } else if constexpr (std::is_same_v<T, BufferWrite>) {
          return {{"buffer", c.buffer},
                  {"offset", c.offset},
                  {"size", c.size},
                  {"data", blob_json(c.data)},
                  {"rect", rect_json(c.rect)}};
        } else if constexpr (std::is_same_v<T, BufferRead>) {
          return {{"buffer", c.buffer},
                  {"offset", c.offset},
                  {"size", c.size},
                  {"rect", rect_json(c.rect)}};
        } else if constexpr (std::is_same_v<T, BufferCopy>) {
          return {{"src", c.src},
                  {"dst", c.dst},
                  {"src_offset", c.src_offset},
                  {"dst_offset", c.dst_offset},
                  {"size", c.size},
                  {"rect", rect_json(c.rect)}};
        } else if constexpr (std::is_same_v<T, BufferFill>) {
          return {{"buffer", c.buffer},
                  {"offset", c.offset},
                  {"size", c.size},
                  {"pattern", hex_bytes(c.pattern)}};
        } else if constexpr (std::is_same_v<T, BufferMap>) {
          return {{"buffer", c.buffer}, {"offset", c.offset}, {"size", c.size}, {"flags", c.flags}};
        } else if constexpr (std::is_same_v<T, BufferUnmap>) {
          return {{"buffer", c.buffer},
                  {"map_seq", c.map_seq},
                  {"offset", c.offset},
                  {"size", c.size},
                  {"data", blob_json(c.data)}};
        } else if constexpr (std::is_same_v<T, HostWait>) {
          return {{"events", c.events}};
        } else {
          return ordered_json::object();
        }
      },
      body);
}

const CommandTiming* timing_of(const Range& range, std::uint64_t seq) {
  for (const auto& t : range.timings) {
    if (t.command_seq == seq) return &t;
  }
  return nullptr;
}

struct StateRow {
  CaptureId buffer = 0;
  BlobRef initial, final;
};

std::vector<StateRow> state_rows(const Range& range) {
  std::map<CaptureId, StateRow> rows;
  for (const auto& s : range.initial_state) {
    rows[s.buffer].buffer = s.buffer;
    rows[s.buffer].initial = s.blob;
  }
  for (const auto& s : range.final_state) {
    rows[s.buffer].buffer = s.buffer;
    rows[s.buffer].final = s.blob;
  }
  std::vector<StateRow> out;
  for (auto& [id, row] : rows) out.push_back(row);
  return out;
}

}  // namespace

Written buffer_written(const Range& range, CaptureId buffer) {
  const BlobRef* initial = nullptr;
  const BlobRef* final = nullptr;
  for (const auto& s : range.initial_state) {
    if (s.buffer == buffer) initial = &s.blob;
  }
  for (const auto& s : range.final_state) {
    if (s.buffer == buffer) final = &s.blob;
  }
  if (initial == nullptr || final == nullptr) return Written::Unknown;
  return *initial == *final ? Written::No : Written::Yes;
}

const char* written_name(Written written) {
  switch (written) {
    case Written::Yes:
      return "written";
    case Written::No:
      return "not written";
    case Written::Unknown:
      return "unknown";
  }
  return "unknown";
}

std::string range_text(const ObjectTable& table, const Range& range) {
  std::string out = "range " + std::to_string(range.id) + " \"" + printable(range.name) + "\"";
  if (!range.domain.empty()) out += " (domain " + printable(range.domain) + ")";
  out += ": " + std::string(range_status_name(range.status));
  if (!range.status_reason.empty()) out += ": " + printable(range.status_reason);
  out += "\norder " + std::to_string(range.order) + ", thread " + std::to_string(range.thread_id) +
         ", stream " + hex_u64(range.stream) + ", host time " +
         fixed(static_cast<double>(range.end_ns - range.start_ns) / 1e3, 3) + " us\n";
  std::set<CaptureId> queues;
  for (const auto& c : range.commands) {
    if (c.queue) queues.insert(c.queue);
  }
  out += std::to_string(range.commands.size()) + " commands on " + std::to_string(queues.size()) +
         " queues\n";

  for (const auto& c : range.commands) {
    out += "\n  #" + std::to_string(c.seq) + "  " +
           (c.queue ? "queue " + std::to_string(c.queue) : "host") + "  " +
           body_text(table, c.body);
    std::string notes;
    if (c.event) notes += "  event " + std::to_string(c.event);
    if (!c.wait_events.empty()) {
      notes += "  waits";
      for (const auto e : c.wait_events) notes += " " + std::to_string(e);
    }
    if (c.blocking) notes += "  blocking";
    if (const CommandTiming* t = timing_of(range, c.seq); t && t->end_ns >= t->start_ns) {
      notes += "  device " + fixed(static_cast<double>(t->end_ns - t->start_ns) / 1e3, 3) + " us";
    }
    if (!notes.empty()) out += "\n    " + notes;
    out += "\n";
  }

  out += "\nbuffer states (initial -> final)\n";
  const auto rows = state_rows(range);
  if (rows.empty()) out += "  (none)\n";
  for (const auto& row : rows) {
    const auto size = buffer_size(table, row.buffer);
    out += "  " + memory_label(table, row.buffer) + " (" +
           (size ? human_bytes(*size) : std::string("no record")) + "): " + blob_text(row.initial) +
           " -> " + blob_text(row.final) + ", " + written_name(buffer_written(range, row.buffer)) +
           "\n";
  }
  return out;
}

ordered_json range_json(const ObjectTable& table, const Range& range) {
  ordered_json commands = ordered_json::array();
  for (const auto& c : range.commands) {
    ordered_json cmd = {{"seq", c.seq},
                        {"type", command_name(c.body)},
                        {"queue", c.queue},
                        {"event", c.event},
                        {"wait_events", c.wait_events},
                        {"blocking", c.blocking},
                        {"host_time_ns", c.host_time_ns}};
    cmd.update(body_json(table, c.body));
    if (const CommandTiming* t = timing_of(range, c.seq)) {
      cmd["timing"] = {{"queued_ns", t->queued_ns},
                       {"submit_ns", t->submit_ns},
                       {"start_ns", t->start_ns},
                       {"end_ns", t->end_ns}};
    }
    commands.push_back(std::move(cmd));
  }
  ordered_json states = ordered_json::array();
  for (const auto& row : state_rows(range)) {
    const auto size = buffer_size(table, row.buffer);
    const Buffer* b = table.buffer(row.buffer);
    states.push_back({{"buffer", row.buffer},
                      {"kind", memory_kind_name(table, row.buffer)},
                      {"image", b && b->image ? image_json(*b->image) : ordered_json(nullptr)},
                      {"size", size ? ordered_json(*size) : ordered_json(nullptr)},
                      {"initial", blob_json(row.initial)},
                      {"final", blob_json(row.final)},
                      {"written", written_name(buffer_written(range, row.buffer))}});
  }
  return {{"format", "msprof-analyze-range"},
          {"version", 1},
          {"id", range.id},
          {"name", range.name},
          {"domain", range.domain},
          {"order", range.order},
          {"status", range_status_name(range.status)},
          {"reason", range.status_reason},
          {"thread_id", range.thread_id},
          {"stream", range.stream},
          {"start_ns", range.start_ns},
          {"end_ns", range.end_ns},
          {"objects", range.objects},
          {"commands", commands},
          {"states", states}};
}

}  // namespace msprof::analyze
