#include "analyzer/core/trace_verifier.h"

#include <map>
#include <set>

#include "format/trace_version.h"

namespace msprof::analyze {

using namespace msprof::trace;
using nlohmann::ordered_json;

namespace {

std::string at(const IndexEntry& e) {
  return " at offset " + std::to_string(e.offset);
}

class ReferenceCheck {
 public:
  ReferenceCheck(const TraceReader& reader, VerifyReport& report)
      : reader_(reader), report_(report) {}

  void add(const Record& record) {
    std::visit(
        [&](const auto& r) {
          using T = std::decay_t<decltype(r)>;
          if constexpr (requires { r.id; }) {
            if constexpr (!std::is_same_v<T, Range>) {
              if (!ids_.insert(r.id).second)
                problem("capture id " + std::to_string(r.id) + " is used twice");
              kinds_[r.id] = frame_type_name(static_cast<std::uint16_t>(frame_type_of<T>()));
            }
          }
        },
        record);
  }

  void check(const Record& record) {
    if (const auto* p = std::get_if<Program>(&record)) {
      const std::string who = "program " + std::to_string(p->id);
      blob(who + " IL", p->il);
      for (const auto& b : p->given_binaries) blob(who + " binary", b.data);
      for (const auto& b : p->built_binaries) blob(who + " built binary", b.data);
    } else if (const auto* k = std::get_if<Kernel>(&record)) {
      object("kernel " + std::to_string(k->id), k->program, "program");
    } else if (const auto* b = std::get_if<Buffer>(&record)) {
      if (b->parent) object("buffer " + std::to_string(b->id), b->parent, "buffer");
    } else if (const auto* r = std::get_if<Range>(&record)) {
      range(*r);
    }
  }

 private:
  void problem(const std::string& text) { report_.problems.push_back(text); }

  void blob(const std::string& who, const BlobRef& ref) {
    if (ref.present() && !reader_.has_blob(ref)) {
      problem(who + " names blob " + ref.hash.hex() + " (" + std::to_string(ref.size) +
              " bytes), not in the trace");
    }
  }

  void object(const std::string& who, CaptureId id, const std::string& kind) {
    if (id == 0) return;
    const auto it = kinds_.find(id);
    if (it == kinds_.end()) {
      problem(who + " names " + kind + " " + std::to_string(id) + ", not in the trace");
    } else if (it->second != kind) {
      problem(who + " names " + kind + " " + std::to_string(id) + ", which is a " + it->second);
    }
  }

  void range(const Range& r) {
    const std::string who = "range " + std::to_string(r.id) + " '" + r.name + "'";
    for (const auto& s : r.initial_state) {
      blob(who + " initial state of buffer " + std::to_string(s.buffer), s.blob);
      object(who + " initial state", s.buffer, "buffer");
    }
    for (const auto& s : r.final_state) {
      blob(who + " final state of buffer " + std::to_string(s.buffer), s.blob);
      object(who + " final state", s.buffer, "buffer");
    }
    for (const CaptureId id : r.objects) {
      if (!kinds_.contains(id))
        problem(who + " uses object " + std::to_string(id) + ", not in the trace");
    }
    std::set<CaptureId> events;
    for (const auto& c : r.commands) {
      const std::string cmd = who + " command #" + std::to_string(c.seq);
      object(cmd, c.queue, "queue");
      for (const CaptureId e : c.wait_events) {
        if (!events.contains(e))
          problem(cmd + " waits for event " + std::to_string(e) + " of no earlier command");
      }
      if (const auto* k = std::get_if<KernelLaunch>(&c.body)) {
        object(cmd, k->kernel, "kernel");
        for (const auto& a : k->args) {
          if (a.names_memory())
            object(cmd + " argument " + std::to_string(a.index), a.object, "buffer");
          if (a.kind == ArgKind::Sampler)
            object(cmd + " argument " + std::to_string(a.index), a.object, "sampler");
        }
        for (const auto& a : k->indirect) {
          if (a.names_memory()) object(cmd + " indirect pointer", a.object, "buffer");
        }
      } else if (const auto* w = std::get_if<BufferWrite>(&c.body)) {
        object(cmd, w->buffer, "buffer");
        blob(cmd + " data", w->data);
      } else if (const auto* u = std::get_if<BufferUnmap>(&c.body)) {
        object(cmd, u->buffer, "buffer");
        blob(cmd + " data", u->data);
      } else if (const auto* rd = std::get_if<BufferRead>(&c.body)) {
        object(cmd, rd->buffer, "buffer");
      } else if (const auto* cp = std::get_if<BufferCopy>(&c.body)) {
        object(cmd, cp->src, "buffer");
        object(cmd, cp->dst, "buffer");
      } else if (const auto* f = std::get_if<BufferFill>(&c.body)) {
        object(cmd, f->buffer, "buffer");
      } else if (const auto* m = std::get_if<BufferMap>(&c.body)) {
        object(cmd, m->buffer, "buffer");
      }
      if (c.event) events.insert(c.event);
    }
  }

  const TraceReader& reader_;
  VerifyReport& report_;
  std::set<CaptureId> ids_;
  std::map<CaptureId, std::string> kinds_;
};

}  // namespace

VerifyReport verify_trace(const TraceReader& reader, const std::string& display_path) {
  VerifyReport report;
  report.path = display_path;
  report.recovered = reader.recovered();
  for (const auto& w : reader.warnings()) {
    (reader.recovered() ? report.problems : report.notes).push_back(w);
  }
  if (reader.recovered()) {
    report.problems.push_back(
        "the trace has no trailer and index (the recording did not finish); "
        "msprof-analyze verify --repair writes a complete copy");
  }

  ReferenceCheck refs(reader, report);
  std::vector<Record> records;
  bool have_info = false;
  bool range_without_info = false;
  for (const auto& e : reader.frames()) {
    ++report.frames;
    try {
      if (e.type == static_cast<std::uint16_t>(FrameType::BlobChunk)) {
        ++report.chunks;
        const auto payload = reader.read_payload(e);
        if (hash128(payload) != e.key) {
          report.problems.push_back("blob chunk" + at(e) + " does not match its content hash");
        }
        continue;
      }
      if (e.type == static_cast<std::uint16_t>(FrameType::BlobManifest)) {
        ++report.blobs;
        const auto m = std::get<BlobManifest>(reader.read_record(e));
        reader.manifest({m.hash, m.size});
        continue;
      }
      Record record = reader.read_record(e);
      ++report.records;
      have_info = have_info || std::holds_alternative<TraceInfo>(record);
      if (!have_info && std::holds_alternative<Range>(record) && !range_without_info) {
        range_without_info = true;
        report.problems.push_back("range" + at(e) + " comes before any trace info record");
      }
      if (const auto* info = std::get_if<TraceInfo>(&record);
          info && info->schema_version > kSchemaVersion) {
        report.notes.push_back("written with schema version " +
                               std::to_string(info->schema_version) +
                               ", newer than this reader's " + std::to_string(kSchemaVersion) +
                               "; fields it added are not checked");
      }
      if (std::holds_alternative<Range>(record)) ++report.ranges;
      refs.add(record);
      records.push_back(std::move(record));
    } catch (const TraceError& err) {
      report.problems.push_back(std::string(frame_type_name(e.type)) + " frame" + at(e) + ": " +
                                err.what());
    }
  }
  if (!have_info) report.problems.push_back("the trace has no trace info record");
  for (const auto& record : records) refs.check(record);
  return report;
}

std::string verify_text(const VerifyReport& r) {
  std::string out = r.path + ": " + std::to_string(r.frames) + " frames, " +
                    std::to_string(r.records) + " records, " + std::to_string(r.ranges) +
                    " ranges, " + std::to_string(r.blobs) + " blobs in " +
                    std::to_string(r.chunks) + " chunks" +
                    (r.recovered ? ", no index" : ", indexed") + "\n";
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  for (const auto& p : r.problems) out += "problem: " + p + "\n";
  out += r.sound() ? "trace is sound\n"
                   : "trace is NOT sound: " + std::to_string(r.problems.size()) + " problems\n";
  return out;
}

ordered_json verify_json(const VerifyReport& r) {
  return {{"format", "msprof-analyze-verify"},
          {"version", 1},
          {"trace", r.path},
          {"sound", r.sound()},
          {"recovered", r.recovered},
          {"frames", r.frames},
          {"records", r.records},
          {"ranges", r.ranges},
          {"blobs", r.blobs},
          {"chunks", r.chunks},
          {"problems", r.problems},
          {"notes", r.notes}};
}

}  // namespace msprof::analyze
