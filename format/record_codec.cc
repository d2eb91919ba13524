#include "format/record_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <type_traits>

#include "format/trace_error.h"
#include "schemas/trace_generated.h"

namespace msprof::trace {
namespace {

namespace fb = msprof::fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// ---- encoding -------------------------------------------------------------

fb::Hash128 to_fb(const Hash128& h) {
  return fb::Hash128(h.lo, h.hi);
}
fb::BlobRef to_fb(const BlobRef& b) {
  return fb::BlobRef(to_fb(b.hash), b.size);
}

template <typename T>
auto vec(FlatBufferBuilder& fbb, const std::vector<T>& v) {
  return fbb.CreateVector(v);
}

auto strings(FlatBufferBuilder& fbb, const std::vector<std::string>& v) {
  return fbb.CreateVectorOfStrings(v);
}

Offset<fb::DeviceInfo> encode(FlatBufferBuilder& fbb, const DeviceInfo& d) {
  return fb::CreateDeviceInfo(fbb, fbb.CreateString(d.platform_name),
                              fbb.CreateString(d.platform_version), fbb.CreateString(d.device_name),
                              fbb.CreateString(d.vendor), fbb.CreateString(d.driver_version),
                              fbb.CreateString(d.device_version), fbb.CreateString(d.device_type),
                              d.compute_units, d.global_mem_bytes, d.local_mem_bytes,
                              d.global_cache_bytes, d.cacheline_bytes, d.max_clock_mhz,
                              d.max_work_group_size, d.address_bits);
}

Offset<void> encode(FlatBufferBuilder& fbb, const TraceInfo& t) {
  flatbuffers::Optional<std::uint8_t> min_saving = flatbuffers::nullopt;
  if (t.options.min_saving_percent) {
    min_saving =
        static_cast<std::uint8_t>(std::min(*t.options.min_saving_percent, kMaxMinSavingPercent));
  }
  auto options = fb::CreateCaptureOptions(
      fbb, strings(fbb, t.options.include), strings(fbb, t.options.exclude), t.options.final_state,
      t.options.kill, t.options.compression_level, t.options.memory_bound,
      t.options.compression_threads, min_saving);
  std::vector<Offset<fb::DeviceInfo>> devices;
  for (const auto& d : t.devices) devices.push_back(encode(fbb, d));
  return fb::CreateTraceInfo(fbb, t.schema_version, t.min_reader_version,
                             fbb.CreateString(t.tool_version), t.created_unix_ns,
                             fbb.CreateString(t.host), strings(fbb, t.command_line), t.pid,
                             fbb.CreateString(t.api), options, fbb.CreateVector(devices))
      .Union();
}

Offset<void> encode(FlatBufferBuilder& fbb, const Context& c) {
  return fb::CreateContext(fbb, c.id, vec(fbb, c.devices)).Union();
}

auto encode_binaries(FlatBufferBuilder& fbb, const std::vector<ProgramBinary>& binaries) {
  std::vector<Offset<fb::ProgramBinary>> out;
  for (const auto& b : binaries) {
    const auto data = to_fb(b.data);
    out.push_back(fb::CreateProgramBinary(fbb, b.device, &data));
  }
  return fbb.CreateVector(out);
}

Offset<void> encode(FlatBufferBuilder& fbb, const Program& p) {
  const auto il = to_fb(p.il);
  return fb::CreateProgram(fbb, p.id, p.context, static_cast<fb::ProgramKind>(p.kind),
                           strings(fbb, p.sources), &il, encode_binaries(fbb, p.given_binaries),
                           fbb.CreateString(p.build_options),
                           encode_binaries(fbb, p.built_binaries), vec(fbb, p.devices),
                           fbb.CreateString(p.kernel_names))
      .Union();
}

Offset<void> encode(FlatBufferBuilder& fbb, const Kernel& k) {
  std::vector<Offset<fb::KernelArgInfo>> info;
  for (const auto& a : k.arg_info) {
    info.push_back(fb::CreateKernelArgInfo(fbb, fbb.CreateString(a.name),
                                           fbb.CreateString(a.type_name), a.address_qualifier,
                                           a.access_qualifier, a.type_qualifier));
  }
  return fb::CreateKernel(fbb, k.id, k.program, fbb.CreateString(k.name), k.num_args,
                          fbb.CreateVector(info))
      .Union();
}

Offset<void> encode(FlatBufferBuilder& fbb, const Buffer& b) {
  Offset<fb::ImageDesc> image = 0;
  if (b.image) {
    const ImageDesc& d = *b.image;
    image =
        fb::CreateImageDesc(fbb, static_cast<fb::ImageType>(d.type), d.width, d.height, d.depth,
                            d.array_size, d.channel_order, d.channel_type, d.pixel_size, d.channels,
                            fbb.CreateString(d.element_type), d.row_pitch, d.slice_pitch);
  }
  return fb::CreateBuffer(fbb, b.id, b.context, b.flags, b.size, b.parent, b.origin,
                          b.device_address.has_value(), b.device_address.value_or(0),
                          static_cast<fb::MemoryKind>(b.kind), b.alignment, image)
      .Union();
}

Offset<void> encode(FlatBufferBuilder& fbb, const Queue& q) {
  return fb::CreateQueue(fbb, q.id, q.context, q.device, q.properties, q.out_of_order, q.profiling)
      .Union();
}

Offset<void> encode(FlatBufferBuilder& fbb, const Sampler& s) {
  return fb::CreateSampler(fbb, s.id, s.context, s.normalized_coords, s.addressing_mode,
                           s.filter_mode)
      .Union();
}

Offset<fb::Rect> encode_rect(FlatBufferBuilder& fbb, const std::optional<Rect>& r) {
  if (!r) return 0;
  return fb::CreateRect(fbb, vec(fbb, r->buffer_origin), vec(fbb, r->host_origin),
                        vec(fbb, r->region), r->buffer_row_pitch, r->buffer_slice_pitch,
                        r->host_row_pitch, r->host_slice_pitch);
}

struct BodyEncoder {
  FlatBufferBuilder& fbb;

  std::pair<fb::CommandBody, Offset<void>> operator()(const KernelLaunch& k) const {
    const auto encode_args = [&](const std::vector<KernelArg>& list) {
      std::vector<Offset<fb::KernelArg>> out;
      for (const auto& a : list) {
        out.push_back(fb::CreateKernelArg(fbb, a.index, static_cast<fb::ArgKind>(a.kind), a.object,
                                          a.offset, vec(fbb, a.bytes), a.local_size));
      }
      return fbb.CreateVector(out);
    };
    const auto args = encode_args(k.args);
    const auto indirect = k.indirect.empty() ? 0 : encode_args(k.indirect);
    return {fb::CommandBody::KernelLaunch,
            fb::CreateKernelLaunch(fbb, k.kernel, k.work_dim, vec(fbb, k.global_offset),
                                   vec(fbb, k.global_size), vec(fbb, k.local_size), args, indirect)
                .Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const BufferWrite& w) const {
    const auto data = to_fb(w.data);
    const auto rect = encode_rect(fbb, w.rect);
    return {fb::CommandBody::BufferWrite,
            fb::CreateBufferWrite(fbb, w.buffer, w.offset, w.size, &data, rect).Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const BufferRead& r) const {
    const auto rect = encode_rect(fbb, r.rect);
    return {fb::CommandBody::BufferRead,
            fb::CreateBufferRead(fbb, r.buffer, r.offset, r.size, rect).Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const BufferCopy& c) const {
    const auto rect = encode_rect(fbb, c.rect);
    return {
        fb::CommandBody::BufferCopy,
        fb::CreateBufferCopy(fbb, c.src, c.dst, c.src_offset, c.dst_offset, c.size, rect).Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const BufferFill& f) const {
    return {fb::CommandBody::BufferFill,
            fb::CreateBufferFill(fbb, f.buffer, vec(fbb, f.pattern), f.offset, f.size,
                                 encode_rect(fbb, f.rect))
                .Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const BufferMap& m) const {
    return {fb::CommandBody::BufferMap,
            fb::CreateBufferMap(fbb, m.buffer, m.flags, m.offset, m.size, encode_rect(fbb, m.rect))
                .Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const BufferUnmap& u) const {
    const auto data = to_fb(u.data);
    return {fb::CommandBody::BufferUnmap,
            fb::CreateBufferUnmap(fbb, u.buffer, u.map_seq, u.offset, u.size, &data,
                                  encode_rect(fbb, u.rect))
                .Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const Marker&) const {
    return {fb::CommandBody::Marker, fb::CreateMarker(fbb).Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const Barrier&) const {
    return {fb::CommandBody::Barrier, fb::CreateBarrier(fbb).Union()};
  }
  std::pair<fb::CommandBody, Offset<void>> operator()(const HostWait& w) const {
    return {fb::CommandBody::HostWait, fb::CreateHostWait(fbb, vec(fbb, w.events)).Union()};
  }
};

auto encode_states(FlatBufferBuilder& fbb, const std::vector<BufferState>& states) {
  std::vector<Offset<fb::BufferState>> out;
  for (const auto& s : states) {
    const auto blob = to_fb(s.blob);
    out.push_back(fb::CreateBufferState(fbb, s.buffer, &blob));
  }
  return fbb.CreateVector(out);
}

Offset<void> encode(FlatBufferBuilder& fbb, const Range& r) {
  std::vector<Offset<fb::Command>> commands;
  for (const auto& c : r.commands) {
    const auto [type, body] = std::visit(BodyEncoder{fbb}, c.body);
    commands.push_back(fb::CreateCommand(fbb, c.seq, c.queue, c.event, vec(fbb, c.wait_events),
                                         c.blocking, c.host_time_ns, type, body));
  }
  std::vector<Offset<fb::CommandTiming>> timings;
  for (const auto& t : r.timings) {
    timings.push_back(fb::CreateCommandTiming(fbb, t.command_seq, t.queued_ns, t.submit_ns,
                                              t.start_ns, t.end_ns));
  }
  return fb::CreateRange(fbb, r.id, fbb.CreateString(r.name), fbb.CreateString(r.domain), r.order,
                         r.thread_id, r.stream, r.start_ns, r.end_ns,
                         static_cast<fb::RangeStatus>(r.status), fbb.CreateString(r.status_reason),
                         fbb.CreateVector(commands), encode_states(fbb, r.initial_state),
                         encode_states(fbb, r.final_state), fbb.CreateVector(timings),
                         vec(fbb, r.objects))
      .Union();
}

Offset<void> encode(FlatBufferBuilder& fbb, const BlobManifest& m) {
  std::vector<fb::ChunkRef> chunks;
  chunks.reserve(m.chunks.size());
  for (const auto& c : m.chunks) chunks.emplace_back(to_fb(c.hash), c.size);
  const auto hash = to_fb(m.hash);
  return fb::CreateBlobManifest(fbb, &hash, m.size, m.chunk_size, fbb.CreateVectorOfStructs(chunks))
      .Union();
}

// The RecordBody member of each record kind: the table of the same name.
template <typename T>
constexpr fb::RecordBody union_tag_of() {
#define MSPROF_UNION_TAG_OF(type, value, name) \
  if constexpr (std::is_same_v<T, type>)       \
    return fb::RecordBody::type;               \
  else
  MSPROF_TRACE_RECORD_KINDS(MSPROF_UNION_TAG_OF)
#undef MSPROF_UNION_TAG_OF
  static_assert(sizeof(T) == 0, "not a record kind of record_kinds.h");
}

// A union member in trace.fbs with no line in record_kinds.h could be
// written by nobody and read by nobody.
static_assert(static_cast<std::size_t>(fb::RecordBody::MAX) == std::variant_size_v<Record>,
              "every RecordBody member of trace.fbs needs its line in record_kinds.h");

std::vector<std::byte> finish(FlatBufferBuilder& fbb) {
  const auto* data = reinterpret_cast<const std::byte*>(fbb.GetBufferPointer());
  return {data, data + fbb.GetSize()};
}

// ---- decoding -------------------------------------------------------------

// Decoding reads only verified buffers, so null checks are about optional
// fields, not safety.
std::string str(const flatbuffers::String* s) {
  return s ? s->str() : std::string();
}

// The verifier checks a vector's length field for 4-byte alignment only, so a
// hostile buffer can put 8-byte elements and structs off their alignment
// while still passing: element data is copied out bytewise, never
// dereferenced in place.
static_assert(std::endian::native == std::endian::little,
              "FlatBuffers data is little-endian and is copied as is");

template <typename T>
std::vector<T> vec_of(const flatbuffers::Vector<T>* v) {
  static_assert(std::is_arithmetic_v<T>);
  std::vector<T> out(v ? v->size() : 0);
  if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
  return out;
}

template <typename Struct>
Struct copy_struct(const Struct* p) {
  static_assert(std::is_trivially_copyable_v<Struct>);
  Struct out;
  std::memcpy(&out, p, sizeof(Struct));
  return out;
}

std::vector<std::string> strings_of(const flatbuffers::Vector<Offset<flatbuffers::String>>* v) {
  std::vector<std::string> out;
  if (v) {
    for (const auto* s : *v) out.push_back(str(s));
  }
  return out;
}

Hash128 from_fb(const fb::Hash128& h) {
  return {h.lo(), h.hi()};
}
BlobRef from_fb(const fb::BlobRef* b) {
  return b ? BlobRef{from_fb(b->hash()), b->size()} : BlobRef{};
}

DeviceInfo decode(const fb::DeviceInfo& d) {
  DeviceInfo out;
  out.platform_name = str(d.platform_name());
  out.platform_version = str(d.platform_version());
  out.device_name = str(d.device_name());
  out.vendor = str(d.vendor());
  out.driver_version = str(d.driver_version());
  out.device_version = str(d.device_version());
  out.device_type = str(d.device_type());
  out.compute_units = d.compute_units();
  out.global_mem_bytes = d.global_mem_bytes();
  out.local_mem_bytes = d.local_mem_bytes();
  out.global_cache_bytes = d.global_cache_bytes();
  out.cacheline_bytes = d.cacheline_bytes();
  out.max_clock_mhz = d.max_clock_mhz();
  out.max_work_group_size = d.max_work_group_size();
  out.address_bits = d.address_bits();
  return out;
}

TraceInfo decode(const fb::TraceInfo& t) {
  TraceInfo out;
  out.schema_version = t.schema_version();
  out.min_reader_version = t.min_reader_version();
  out.tool_version = str(t.tool_version());
  out.created_unix_ns = t.created_unix_ns();
  out.host = str(t.host());
  out.command_line = strings_of(t.command_line());
  out.pid = t.pid();
  out.api = str(t.api());
  if (const auto* o = t.options()) {
    out.options.include = strings_of(o->include());
    out.options.exclude = strings_of(o->exclude());
    out.options.final_state = o->final_state();
    out.options.kill = o->kill();
    out.options.compression_level = o->compression_level();
    out.options.memory_bound = o->memory_bound();
    out.options.compression_threads = o->compression_threads();
    if (const auto min_saving = o->min_saving_percent(); min_saving.has_value()) {
      out.options.min_saving_percent = *min_saving;
    }
  }
  if (t.devices()) {
    for (const auto* d : *t.devices()) out.devices.push_back(decode(*d));
  }
  return out;
}

Context decode(const fb::Context& c) {
  return {c.id(), vec_of(c.devices())};
}

std::vector<ProgramBinary> decode_binaries(
    const flatbuffers::Vector<Offset<fb::ProgramBinary>>* v) {
  std::vector<ProgramBinary> out;
  if (v) {
    for (const auto* b : *v) out.push_back({b->device(), from_fb(b->data())});
  }
  return out;
}

template <typename Enum>
Enum checked_enum(std::uint8_t value, std::uint8_t max, const char* what, std::uint64_t offset) {
  if (value > max)
    throw CorruptError(std::string("unknown ") + what + " value " + std::to_string(value), offset);
  return static_cast<Enum>(value);
}

Program decode(const fb::Program& p, std::uint64_t offset) {
  Program out;
  out.id = p.id();
  out.context = p.context();
  out.kind =
      checked_enum<ProgramKind>(static_cast<std::uint8_t>(p.kind()), 3, "program kind", offset);
  out.sources = strings_of(p.sources());
  out.il = from_fb(p.il());
  out.given_binaries = decode_binaries(p.given_binaries());
  out.build_options = str(p.build_options());
  out.built_binaries = decode_binaries(p.built_binaries());
  out.devices = vec_of(p.devices());
  out.kernel_names = str(p.kernel_names());
  return out;
}

Kernel decode(const fb::Kernel& k) {
  Kernel out{k.id(), k.program(), str(k.name()), k.num_args(), {}};
  if (k.arg_info()) {
    for (const auto* a : *k.arg_info()) {
      out.arg_info.push_back({str(a->name()), str(a->type_name()), a->address_qualifier(),
                              a->access_qualifier(), a->type_qualifier()});
    }
  }
  return out;
}

Buffer decode(const fb::Buffer& b, std::uint64_t offset) {
  Buffer out{b.id(),     b.context(),  b.flags(),          b.size(), b.parent(),
             b.origin(), std::nullopt, MemoryKind::Buffer, 0,        std::nullopt};
  if (b.has_device_address()) out.device_address = b.device_address();
  out.kind =
      checked_enum<MemoryKind>(static_cast<std::uint8_t>(b.kind()), 2, "memory kind", offset);
  if (const auto* d = b.image()) {
    out.image = ImageDesc{
        checked_enum<ImageType>(static_cast<std::uint8_t>(d->type()), 5, "image type", offset),
        d->width(),
        d->height(),
        d->depth(),
        d->array_size(),
        d->channel_order(),
        d->channel_type(),
        d->pixel_size(),
        d->channels(),
        str(d->element_type()),
        d->row_pitch(),
        d->slice_pitch()};
  }
  out.alignment = b.alignment();
  return out;
}

Queue decode(const fb::Queue& q) {
  return {q.id(), q.context(), q.device(), q.properties(), q.out_of_order(), q.profiling()};
}

Sampler decode(const fb::Sampler& s) {
  return {s.id(), s.context(), s.normalized_coords(), s.addressing_mode(), s.filter_mode()};
}

std::optional<Rect> decode_rect(const fb::Rect* r) {
  if (!r) return std::nullopt;
  return Rect{vec_of(r->buffer_origin()), vec_of(r->host_origin()), vec_of(r->region()),
              r->buffer_row_pitch(),      r->buffer_slice_pitch(),  r->host_row_pitch(),
              r->host_slice_pitch()};
}

CommandBody decode_body(const fb::Command& c, std::uint64_t offset) {
  switch (c.body_type()) {
    case fb::CommandBody::KernelLaunch: {
      const auto* k = c.body_as_KernelLaunch();
      KernelLaunch out{k->kernel(),
                       k->work_dim(),
                       vec_of(k->global_offset()),
                       vec_of(k->global_size()),
                       vec_of(k->local_size()),
                       {},
                       {}};
      const auto decode_args = [&](const auto* list, std::vector<KernelArg>& into) {
        if (!list) return;
        for (const auto* a : *list) {
          into.push_back({a->index(),
                          checked_enum<ArgKind>(static_cast<std::uint8_t>(a->kind()), 6,
                                                "argument kind", offset),
                          a->object(), a->offset(), vec_of(a->bytes()), a->local_size()});
        }
      };
      decode_args(k->args(), out.args);
      decode_args(k->indirect(), out.indirect);
      return out;
    }
    case fb::CommandBody::BufferWrite: {
      const auto* w = c.body_as_BufferWrite();
      return BufferWrite{w->buffer(), w->offset(), w->size(), from_fb(w->data()),
                         decode_rect(w->rect())};
    }
    case fb::CommandBody::BufferRead: {
      const auto* r = c.body_as_BufferRead();
      return BufferRead{r->buffer(), r->offset(), r->size(), decode_rect(r->rect())};
    }
    case fb::CommandBody::BufferCopy: {
      const auto* b = c.body_as_BufferCopy();
      return BufferCopy{b->src(),        b->dst(),  b->src_offset(),
                        b->dst_offset(), b->size(), decode_rect(b->rect())};
    }
    case fb::CommandBody::BufferFill: {
      const auto* f = c.body_as_BufferFill();
      return BufferFill{f->buffer(), vec_of(f->pattern()), f->offset(), f->size(),
                        decode_rect(f->rect())};
    }
    case fb::CommandBody::BufferMap: {
      const auto* m = c.body_as_BufferMap();
      return BufferMap{m->buffer(), m->flags(), m->offset(), m->size(), decode_rect(m->rect())};
    }
    case fb::CommandBody::BufferUnmap: {
      const auto* u = c.body_as_BufferUnmap();
      return BufferUnmap{u->buffer(), u->map_seq(),       u->offset(),
                         u->size(),   from_fb(u->data()), decode_rect(u->rect())};
    }
    case fb::CommandBody::Marker:
      return Marker{};
    case fb::CommandBody::Barrier:
      return Barrier{};
    case fb::CommandBody::HostWait:
      return HostWait{vec_of(c.body_as_HostWait()->events())};
    case fb::CommandBody::NONE:
      break;
  }
  throw CorruptError("command " + std::to_string(c.seq()) + " has an unknown kind (" +
                         std::to_string(static_cast<int>(c.body_type())) +
                         "); the trace may come from a newer msprof-record",
                     offset);
}

std::vector<BufferState> decode_states(const flatbuffers::Vector<Offset<fb::BufferState>>* v) {
  std::vector<BufferState> out;
  if (v) {
    for (const auto* s : *v) out.push_back({s->buffer(), from_fb(s->blob())});
  }
  return out;
}

Range decode(const fb::Range& r, std::uint64_t offset) {
  Range out;
  out.id = r.id();
  out.name = str(r.name());
  out.domain = str(r.domain());
  out.order = r.order();
  out.thread_id = r.thread_id();
  out.stream = r.stream();
  out.start_ns = r.start_ns();
  out.end_ns = r.end_ns();
  out.status =
      checked_enum<RangeStatus>(static_cast<std::uint8_t>(r.status()), 3, "range status", offset);
  out.status_reason = str(r.status_reason());
  if (r.commands()) {
    for (const auto* c : *r.commands()) {
      out.commands.push_back({c->seq(), c->queue(), c->event(), vec_of(c->wait_events()),
                              c->blocking(), c->host_time_ns(), decode_body(*c, offset)});
    }
  }
  out.initial_state = decode_states(r.initial_state());
  out.final_state = decode_states(r.final_state());
  if (r.timings()) {
    for (const auto* t : *r.timings()) {
      out.timings.push_back(
          {t->command_seq(), t->queued_ns(), t->submit_ns(), t->start_ns(), t->end_ns()});
    }
  }
  out.objects = vec_of(r.objects());
  return out;
}

BlobManifest decode(const fb::BlobManifest& m) {
  BlobManifest out;
  if (m.hash()) out.hash = from_fb(*m.hash());
  out.size = m.size();
  out.chunk_size = m.chunk_size();
  if (m.chunks()) {
    out.chunks.reserve(m.chunks()->size());
    for (const auto* p : *m.chunks()) {
      const auto c = copy_struct(p);
      out.chunks.push_back({from_fb(c.hash()), c.size()});
    }
  }
  return out;
}

// Decoders that can reject a record (an unknown enum value) take its offset
// for the error; the others do not need it.
template <typename Table>
auto decode_at(const Table& body, std::uint64_t offset) {
  if constexpr (requires { decode(body, offset); }) {
    return decode(body, offset);
  } else {
    return decode(body);
  }
}

}  // namespace

EncodedRecord encode_record(const Record& record) {
  FlatBufferBuilder fbb(1024);
  FrameType type{};
  fb::RecordBody body_type{};
  Offset<void> body;
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        type = frame_type_of<T>();
        body_type = union_tag_of<T>();
        body = encode(fbb, r);
      },
      record);
  fbb.FinishSizePrefixed(fb::CreateRecord(fbb, body_type, body), fb::RecordIdentifier());
  return {type, finish(fbb)};
}

Record decode_record(FrameType type, std::span<const std::byte> bytes, std::uint64_t offset) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  flatbuffers::Verifier verifier(data, bytes.size(), /*max_depth=*/64, /*max_tables=*/50'000'000);
  if (!fb::VerifySizePrefixedRecordBuffer(verifier)) {
    throw CorruptError(std::string(frame_type_name(static_cast<std::uint16_t>(type))) +
                           " record fails FlatBuffers verification",
                       offset);
  }
  const fb::Record* record = fb::GetSizePrefixedRecord(data);
  const auto mismatch = [&]() {
    return CorruptError(std::string("record body does not match its frame type ") +
                            std::string(frame_type_name(static_cast<std::uint16_t>(type))),
                        offset);
  };
  switch (type) {
#define MSPROF_DECODE_RECORD(type, value, name)                                          \
  case FrameType::type:                                                                  \
    if (const auto* body = record->body_as<fb::type>()) return decode_at(*body, offset); \
    throw mismatch();
    MSPROF_TRACE_RECORD_KINDS(MSPROF_DECODE_RECORD)
#undef MSPROF_DECODE_RECORD
    case FrameType::BlobChunk:
    case FrameType::Index:
      break;
  }
  throw CorruptError("frame type is not a record", offset);
}

std::vector<std::byte> encode_index(std::span<const IndexEntry> entries) {
  FlatBufferBuilder fbb(64 + entries.size() * 48);
  std::vector<fb::IndexEntry> out;
  out.reserve(entries.size());
  for (const auto& e : entries)
    out.emplace_back(e.offset, e.frame_size, e.raw_size, to_fb(e.key), e.type);
  fbb.FinishSizePrefixed(fb::CreateIndex(fbb, fbb.CreateVectorOfStructs(out)));
  return finish(fbb);
}

std::vector<IndexEntry> decode_index(std::span<const std::byte> bytes, std::uint64_t offset) {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  flatbuffers::Verifier verifier(data, bytes.size());
  if (!verifier.VerifySizePrefixedBuffer<fb::Index>(nullptr)) {
    throw CorruptError("index fails FlatBuffers verification", offset);
  }
  const auto* index = flatbuffers::GetSizePrefixedRoot<fb::Index>(data);
  std::vector<IndexEntry> out;
  if (index->entries()) {
    out.reserve(index->entries()->size());
    for (const auto* p : *index->entries()) {
      const auto e = copy_struct(p);
      out.push_back({e.offset(), e.frame_size(), e.raw_size(), from_fb(e.key()), e.type()});
    }
  }
  return out;
}

}  // namespace msprof::trace
