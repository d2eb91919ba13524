#include "format/append_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include "format/trace_error.h"
#include "thread_name/thread_name.h"

namespace msprof::trace {
namespace {

// Direct I/O wants buffers, offsets and sizes aligned to the logical block;
// 4 KiB covers every disk this runs on. A file system that wants more
// refuses the write, and the file falls back to buffered writing.
constexpr std::size_t kAlignment = 4096;
// One stage filling and two on their way to the disk keep the disk busy
// while the appending thread copies.
constexpr unsigned kMaxStages = 3;
constexpr std::uint64_t kWriteBehindWindow = 32ull << 20;

static_assert(AppendFile::kStageSize % kAlignment == 0);

std::size_t align_down(std::uint64_t n) {
  return static_cast<std::size_t>(n - n % kAlignment);
}

}  // namespace

void AppendFile::AlignedFree::operator()(std::byte* p) const {
  ::operator delete[](p, std::align_val_t{kAlignment});
}

AppendFile::AppendFile(const std::filesystem::path& path) : path_(path) {
  buffered_fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (buffered_fd_ < 0) {
    throw IoError("cannot create trace " + path.string() + ": " + std::strerror(errno) +
                  "; choose a writable path");
  }
  direct_fd_ = ::open(path.c_str(), O_WRONLY | O_DIRECT | O_CLOEXEC);
  if (direct_fd_ < 0) direct_ok_ = false;
  stage_.reset(static_cast<std::byte*>(::operator new[](kStageSize, std::align_val_t{kAlignment})));
  stages_made_ = 1;
  io_ = std::thread([this] { run_io(); });
}

AppendFile::~AppendFile() {
  try {
    flush();
  } catch (...) {
    // What was written before the failure stays readable by a scan.
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  io_.join();
  if (direct_fd_ >= 0) ::close(direct_fd_);
  ::close(buffered_fd_);
}

bool AppendFile::direct() const {
  std::lock_guard lock(mutex_);
  return direct_ok_;
}

void AppendFile::rethrow_locked() {
  std::rethrow_exception(error_);
}

void AppendFile::append(std::span<const std::byte> bytes) {
  {
    std::lock_guard lock(mutex_);
    if (error_) rethrow_locked();
  }
  while (!bytes.empty()) {
    const std::size_t take = std::min(bytes.size(), kStageSize - used_);
    std::memcpy(stage_.get() + used_, bytes.data(), take);
    used_ += take;
    bytes = bytes.subspan(take);
    if (used_ == kStageSize) hand_over_stage();
  }
}

void AppendFile::hand_over_stage() {
  std::unique_lock lock(mutex_);
  // A flush already put the aligned bytes below flushed_ in the file.
  const std::size_t in_file = flushed_ > base_ ? align_down(flushed_ - base_) : 0;
  full_.push_back(FullStage{std::move(stage_), base_, in_file});
  changed_.notify_all();
  changed_.wait(lock, [&] { return error_ || !spare_.empty() || stages_made_ < kMaxStages; });
  if (error_) rethrow_locked();
  if (!spare_.empty()) {
    stage_ = std::move(spare_.back());
    spare_.pop_back();
  } else {
    stage_.reset(
        static_cast<std::byte*>(::operator new[](kStageSize, std::align_val_t{kAlignment})));
    ++stages_made_;
  }
  base_ += kStageSize;
  used_ = 0;
}

void AppendFile::wait_idle(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [&] { return error_ || (full_.empty() && !writing_); });
  if (error_) rethrow_locked();
}

void AppendFile::flush() {
  {
    std::unique_lock lock(mutex_);
    wait_idle(lock);
  }
  // Only the bytes not yet in the file. The aligned part of them goes
  // direct, like a full stage: flushing at every range would otherwise send
  // most of a trace of small ranges through the page cache, which cost
  // more CPU than compressing it on this project's VMs. The unaligned tail
  // goes buffered, is rewritten direct later, and the kernel keeps the two
  // coherent.
  const std::uint64_t end = size();
  std::uint64_t from = std::max(flushed_, base_);
  if (end > from) {
    try {
      const std::size_t first = align_down(from - base_);
      const std::size_t last = align_down(end - base_);
      if (last > first) {
        const std::size_t done = write_direct(stage_.get() + first, last - first, base_ + first);
        from = std::max(from, base_ + first + done);
      }
      write_buffered({stage_.get() + (from - base_), end - from}, from);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
      throw;
    }
  }
  flushed_ = end;
}

void AppendFile::run_io() {
  name_this_thread("msprof-io");
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !full_.empty(); });
    if (full_.empty()) return;
    FullStage stage = std::move(full_.front());
    full_.pop_front();
    writing_ = true;
    const bool failed = error_ != nullptr;
    lock.unlock();
    std::exception_ptr error;
    // After a failure the rest is dropped, so the file stays a prefix.
    if (!failed) {
      try {
        write_stage(stage);
      } catch (...) {
        error = std::current_exception();
      }
    }
    lock.lock();
    if (error && !error_) error_ = error;
    writing_ = false;
    spare_.push_back(std::move(stage.data));
    changed_.notify_all();
  }
}

void AppendFile::write_stage(const FullStage& stage) {
  const std::size_t done =
      stage.in_file + write_direct(stage.data.get() + stage.in_file, kStageSize - stage.in_file,
                                   stage.offset + stage.in_file);
  if (done < kStageSize) {
    write_buffered({stage.data.get() + done, kStageSize - done}, stage.offset + done);
    write_behind(stage.offset + kStageSize);
  }
}

std::size_t AppendFile::write_direct(const std::byte* data, std::size_t size,
                                     std::uint64_t offset) {
  bool direct = false;
  {
    std::lock_guard lock(mutex_);
    direct = direct_ok_;
  }
  std::size_t done = 0;
  while (direct && done < size) {
    const ssize_t n =
        ::pwrite(direct_fd_, data + done, size - done, static_cast<off_t>(offset + done));
    if (n > 0 && static_cast<std::size_t>(n) % kAlignment == 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EINVAL) {
      throw IoError("cannot write trace " + path_.string() + ": " + std::strerror(errno),
                    offset + done);
    }
    // EINVAL: this file system takes no direct I/O (or wants another
    // alignment); a short write that broke the alignment is finished
    // buffered as well.
    if (n > 0) done += static_cast<std::size_t>(n);
    std::lock_guard lock(mutex_);
    direct_ok_ = direct = false;
  }
  return done;
}

void AppendFile::write_buffered(std::span<const std::byte> bytes, std::uint64_t offset) {
  while (!bytes.empty()) {
    const ssize_t n =
        ::pwrite(buffered_fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? std::strerror(errno) : "no progress";
      throw IoError("cannot write trace " + path_.string() + ": " + why, offset);
    }
    offset += static_cast<std::uint64_t>(n);
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

void AppendFile::write_behind(std::uint64_t end) {
  // Start the write of the newer window, wait for the older one and drop
  // it: the disk stays busy while the page cache holds two windows at most.
  // Advice only: a file system without it (tmpfs) just keeps its pages.
  while (end >= behind_ + 2 * kWriteBehindWindow) {
    const auto older = static_cast<off_t>(behind_);
    const auto window = static_cast<off_t>(kWriteBehindWindow);
    ::sync_file_range(buffered_fd_, older + window, window, SYNC_FILE_RANGE_WRITE);
    ::sync_file_range(
        buffered_fd_, older, window,
        SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
    ::posix_fadvise(buffered_fd_, older, window, POSIX_FADV_DONTNEED);
    behind_ += kWriteBehindWindow;
  }
}

}  // namespace msprof::trace
