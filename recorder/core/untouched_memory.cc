#include "recorder/core/untouched_memory.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

namespace msprof::record {
namespace {

// pagemap entry bits (Documentation/admin-guide/mm/pagemap.rst).
constexpr std::uint64_t kPresent = 1ull << 63;
constexpr std::uint64_t kSwapped = 1ull << 62;
constexpr std::uint64_t kFileOrSharedAnon = 1ull << 61;

// Whether [begin, end) lies wholly in private anonymous mappings, by
// /proc/self/maps.
bool private_anonymous(std::uintptr_t begin, std::uintptr_t end) try {
  std::ifstream maps("/proc/self/maps");
  if (!maps) return false;
  std::uintptr_t covered = begin;
  for (std::string line; std::getline(maps, line) && covered < end;) {
    std::istringstream fields(line);
    std::string range, perms, offset, device, path;
    unsigned long long inode = 0;
    fields >> range >> perms >> offset >> device >> inode;
    std::getline(fields >> std::ws, path);
    const auto dash = range.find('-');
    if (dash == std::string::npos) return false;
    const std::uintptr_t lo = std::stoull(range.substr(0, dash), nullptr, 16);
    const std::uintptr_t hi = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (hi <= covered) continue;
    // A gap before this mapping, or one that is not private anonymous.
    if (lo > covered) return false;
    const bool anonymous =
        inode == 0 && (path.empty() || path == "[heap]" || path.starts_with("[anon:"));
    if (perms.size() < 4 || perms[0] != 'r' || perms[3] != 'p' || !anonymous) return false;
    covered = hi;
  }
  return covered >= end;
} catch (const std::exception&) {
  return false;  // a line of an unexpected form: nothing is known
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::vector<bool> untouched_chunks(const void* data, std::size_t size, std::size_t chunk_size) {
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (data == nullptr || chunk_size == 0 || size < chunk_size || page_size <= 0) return {};
  const auto page = static_cast<std::uintptr_t>(page_size);
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::size_t chunks = size / chunk_size;
  const std::uintptr_t end = begin + chunks * chunk_size;
  if (!private_anonymous(begin, end)) return {};
  FileDescriptor pagemap(::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC));
  if (pagemap.get() < 0) return {};

  std::vector<bool> untouched(chunks, false);
  std::vector<std::uint64_t> entries;
  for (std::size_t i = 0; i < chunks; ++i) {
    // Every page the chunk overlaps, the first and last perhaps shared with
    // a neighbour: a page untouched is zeros throughout.
    const std::uintptr_t first = (begin + i * chunk_size) / page;
    const std::uintptr_t last = (begin + (i + 1) * chunk_size - 1) / page;
    entries.resize(last - first + 1);
    const auto bytes = static_cast<ssize_t>(entries.size() * sizeof(std::uint64_t));
    if (::pread(pagemap.get(), entries.data(), static_cast<std::size_t>(bytes),
                static_cast<off_t>(first * sizeof(std::uint64_t))) != bytes) {
      return {};
    }
    untouched[i] = std::none_of(entries.begin(), entries.end(), [](std::uint64_t e) {
      return (e & (kPresent | kSwapped | kFileOrSharedAnon)) != 0;
    });
  }
  return untouched;
}

}  // namespace msprof::record
