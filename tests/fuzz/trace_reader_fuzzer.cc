// libFuzzer entry point: the trace reader must turn any file into either
// content or a TraceError. Anything else (a crash, a sanitizer report, another
// exception, a hang, unbounded memory) is a finding.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "format/trace_error.h"
#include "format/trace_reader.h"
#include "format/trace_record.h"

namespace {

using namespace msprof::trace;

// Blobs up to this size are also read whole into a vector; larger claims are
// only streamed, so a trace that names a huge blob costs one chunk of memory.
constexpr std::uint64_t kMaxWholeBlob = 16ull << 20;

// The input as a file the reader can open by path, without touching the disk.
class MemoryFile {
 public:
  MemoryFile(const std::uint8_t* data, std::size_t size) {
    fd_ = ::memfd_create("trace", MFD_CLOEXEC);
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    for (std::size_t done = 0; done < size;) {
      const ssize_t n = ::write(fd_, data + done, size - done);
      if (n <= 0) {
        std::perror("write to memfd");
        std::abort();
      }
      done += static_cast<std::size_t>(n);
    }
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_ = -1;
};

void collect_blobs(const Record& record, std::vector<BlobRef>& out) {
  if (const auto* range = std::get_if<Range>(&record)) {
    for (const auto& s : range->initial_state) out.push_back(s.blob);
    for (const auto& s : range->final_state) out.push_back(s.blob);
    for (const auto& command : range->commands) {
      if (const auto* w = std::get_if<BufferWrite>(&command.body)) out.push_back(w->data);
      if (const auto* u = std::get_if<BufferUnmap>(&command.body)) out.push_back(u->data);
    }
  } else if (const auto* program = std::get_if<Program>(&record)) {
    out.push_back(program->il);
    for (const auto& b : program->given_binaries) out.push_back(b.data);
    for (const auto& b : program->built_binaries) out.push_back(b.data);
  }
}

// A blob that comes back must come back at the size its reference names.
void read_blob_fully(const TraceReader& reader, const BlobRef& ref) {
  if (!reader.has_blob(ref)) return;
  std::uint64_t streamed = 0;
  try {
    reader.stream_blob(ref, [&](std::span<const std::byte> piece) { streamed += piece.size(); });
  } catch (const TraceError&) {
    return;
  }
  if (streamed != ref.size) {
    std::fprintf(stderr, "stream_blob delivered %llu bytes of a %llu-byte blob\n",
                 static_cast<unsigned long long>(streamed),
                 static_cast<unsigned long long>(ref.size));
    std::abort();
  }
  if (ref.size > kMaxWholeBlob) return;
  try {
    const std::vector<std::byte> whole = reader.read_blob(ref);
    if (whole.size() != ref.size) {
      std::fprintf(stderr, "read_blob returned %zu bytes of a %llu-byte blob\n", whole.size(),
                   static_cast<unsigned long long>(ref.size));
      std::abort();
    }
  } catch (const TraceError&) {
  }
}

void read_everything(const TraceReader& reader) {
  (void)reader.recovered();
  (void)reader.warnings();
  try {
    (void)reader.info();
  } catch (const TraceError&) {
  }
  std::vector<BlobRef> blobs;
  for (const auto& entry : reader.records()) {
    try {
      collect_blobs(reader.read_record(entry), blobs);
    } catch (const TraceError&) {
    }
  }
  for (const auto& ref : blobs) read_blob_fully(reader, ref);
  // Chunks no record refers to still get decompressed and checked.
  for (const auto& entry : reader.frames()) {
    try {
      (void)reader.read_payload(entry);
    } catch (const TraceError&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const MemoryFile file(data, size);
  try {
    const TraceReader reader(file.path());
    read_everything(reader);
  } catch (const TraceError&) {
    // Refusing a bad trace with a typed error is the expected outcome.
  }
  return 0;
}
