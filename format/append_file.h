#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace msprof::trace {

// A new file written front to back. Appended bytes are gathered in aligned
// stages; a full stage goes to the disk with direct I/O on this class's own
// thread, so gigabytes of trace never pass through the page cache. On this
// project's VMs a page-cache page costs a host fault, so buffered writing is
// much slower than direct (bench/README.md, format_bench), and a trace is
// written once and read later anyway. Where the file system refuses direct
// I/O (tmpfs on older kernels) every write is buffered, with write-behind.
//
// The file always holds a prefix of what was appended: stages are written
// in order, and flush() writes the partial stage at the end (direct up to
// its last whole block, the rest through the page cache), so what is
// flushed survives the process being killed.
class AppendFile {
 public:
  // Creates or truncates. Throws IoError naming the path.
  explicit AppendFile(const std::filesystem::path& path);
  // Writes what is left, as flush() does; errors are dropped here.
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  // Not thread-safe: the caller serializes appends and flushes. Throws
  // IoError when this or an earlier write failed; the file then ends at
  // the last byte written before the failure.
  void append(std::span<const std::byte> bytes);
  // Everything appended is in the file (not necessarily on the disk).
  void flush();
  // Bytes appended so far.
  std::uint64_t size() const { return base_ + used_; }
  // False once the file system refused direct I/O.
  bool direct() const;

  static constexpr std::size_t kStageSize = 8u << 20;

 private:
  struct AlignedFree {
    void operator()(std::byte* p) const;
  };
  using StageBuffer = std::unique_ptr<std::byte, AlignedFree>;
  struct FullStage {
    StageBuffer data;
    std::uint64_t offset = 0;
    std::size_t in_file = 0;  // leading bytes a flush already wrote
  };

  void hand_over_stage();
  void wait_idle(std::unique_lock<std::mutex>& lock);
  void run_io();
  void write_stage(const FullStage& stage);
  // Returns the bytes written direct: all, unless the file system refused.
  std::size_t write_direct(const std::byte* data, std::size_t size, std::uint64_t offset);
  void write_buffered(std::span<const std::byte> bytes, std::uint64_t offset);
  void write_behind(std::uint64_t end);
  [[noreturn]] void rethrow_locked();

  std::filesystem::path path_;
  int buffered_fd_ = -1;
  int direct_fd_ = -1;  // -1 when the file system has no direct I/O

  // The stage being filled, owned by the appending thread.
  StageBuffer stage_;
  std::uint64_t base_ = 0;     // file offset of stage_[0]
  std::size_t used_ = 0;       // bytes of stage_ in use
  std::uint64_t flushed_ = 0;  // below this, the file has the bytes

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<FullStage> full_;
  std::vector<StageBuffer> spare_;
  unsigned stages_made_ = 0;
  bool writing_ = false;
  bool stopping_ = false;
  bool direct_ok_ = true;
  std::exception_ptr error_;
  std::uint64_t behind_ = 0;  // buffered mode: below this, dropped from the page cache
  std::thread io_;
};

}  // namespace msprof::trace
