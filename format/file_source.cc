#include "format/file_source.h"

#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/trace_error.h"

namespace msprof::trace {

FileSource::FileSource(const std::filesystem::path& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    throw IoError("cannot open trace " + path.string() + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw IoError("cannot open trace " + path.string() + ": not a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

FileSource::~FileSource() {
  if (fd_ >= 0) ::close(fd_);
}

void FileSource::read(std::uint64_t offset, std::span<std::byte> out) const {
  if (offset > size_ || out.size() > size_ - offset) {
    throw TruncatedError("trace " + path_.string() + " ends before the " +
                             std::to_string(out.size()) + " bytes expected here",
                         offset);
  }
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n =
        ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw IoError("cannot read trace " + path_.string() + ": " + std::strerror(errno),
                    offset + done);
    }
    if (n == 0)
      throw TruncatedError("trace " + path_.string() + " shrank while being read", offset + done);
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace msprof::trace
