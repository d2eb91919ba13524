// A stand-in for the recorder: an AnnotationSink that writes one line per
// event to the file named by MSPROF_ANNOTATION_LOG, so that the mstx and NVTX
// protocols can be tested without the capture core.
//
//   start <id> "<domain>" "<message>" <stream>
//   end <id> "<domain>"
//   mark "<domain>" "<message>" <stream>
//
// Quoted fields escape \ and " with a backslash (shlex reads them back).
// MSPROF_ANNOTATION_LOG_FIRST_ID sets the first range id (default 1);
// MSPROF_ANNOTATION_LOG_REFUSE=1 makes every range_start fail (id 0).
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>

#include "recorder/core/annotation_sink.h"

namespace msprof::record {
namespace {

std::uint64_t first_id() {
  const char* text = std::getenv("MSPROF_ANNOTATION_LOG_FIRST_ID");
  if (text == nullptr || *text == '\0') return 1;
  return std::strtoull(text, nullptr, 0);
}

bool refuse_ranges() {
  const char* text = std::getenv("MSPROF_ANNOTATION_LOG_REFUSE");
  return text != nullptr && std::string_view(text) == "1";
}

void append_quoted(std::string& line, std::string_view text) {
  line.push_back('"');
  for (char c : text) {
    if (c == '"' || c == '\\') line.push_back('\\');
    line.push_back(c);
  }
  line.push_back('"');
}

class AnnotationLogSink final : public AnnotationSink {
 public:
  AnnotationLogSink() : next_id_(first_id()), refuse_(refuse_ranges()) {
    const char* path = std::getenv("MSPROF_ANNOTATION_LOG");
    if (path != nullptr && *path != '\0') file_ = std::fopen(path, "a");
  }

  std::uint64_t range_start(std::string_view domain, std::string_view message,
                            std::uint64_t stream) noexcept override {
    if (refuse_) return 0;
    std::uint64_t id = next_id_.fetch_add(1);
    try {
      std::string line = "start " + std::to_string(id) + " ";
      append_quoted(line, domain);
      line += " ";
      append_quoted(line, message);
      line += " " + std::to_string(stream);
      write(line);
    } catch (...) {
    }
    return id;
  }

  void range_end(std::string_view domain, std::uint64_t id) noexcept override {
    try {
      std::string line = "end " + std::to_string(id) + " ";
      append_quoted(line, domain);
      write(line);
    } catch (...) {
    }
  }

  void mark(std::string_view domain, std::string_view message,
            std::uint64_t stream) noexcept override {
    try {
      std::string line = "mark ";
      append_quoted(line, domain);
      line += " ";
      append_quoted(line, message);
      line += " " + std::to_string(stream);
      write(line);
    } catch (...) {
    }
  }

 private:
  void write(const std::string& line) {
    if (file_ == nullptr) return;
    std::lock_guard lock(mutex_);
    std::fprintf(file_, "%s\n", line.c_str());
    std::fflush(file_);
  }

  std::atomic<std::uint64_t> next_id_;
  bool refuse_;
  std::mutex mutex_;
  std::FILE* file_ = nullptr;
};

}  // namespace

// Never destroyed: events may come from threads running during exit.
AnnotationSink& annotation_sink() noexcept {
  static AnnotationSink* const sink = new AnnotationLogSink;
  return *sink;
}

}  // namespace msprof::record
