#pragma once

#include <doctest/doctest.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace msprof::test {

// A small file system for the tests of what the tools do when the disk is
// full: a tmpfs of `mib` MiB the test mounts (root, as the test command
// runs) under a fresh folder, unmounted at the end.
class SmallDisk {
 public:
  explicit SmallDisk(int mib) : path_(dir_ / "disk") {
    std::filesystem::create_directory(path_);
    const std::string options = "size=" + std::to_string(mib) + "m";
    mounted_ = ::mount("tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) == 0;
    if (!mounted_) why_ = std::strerror(errno);
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool mounted() const { return mounted_; }
  // Says why a case did not run, where the machine refuses the mount.
  void skip() const {
    const std::string why = "cannot mount a tmpfs (" + why_ + "); this case is not run";
    MESSAGE(why);
  }
  const std::string& why() const { return why_; }
  const std::filesystem::path& path() const { return path_; }
  // Fills the disk with a file until `leave` bytes or fewer are free.
  void fill(std::uint64_t leave) {
    std::ofstream out(path_ / "filler", std::ios::binary);
    const std::vector<char> block(4096, 'x');
    while (std::filesystem::space(path_).available > leave) {
      if (!out.write(block.data(), block.size()) || !out.flush()) break;
    }
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path_)) {
      if (e.path().filename() != "filler") out.push_back(e.path().filename().string());
    }
    return out;
  }

 private:
  TempDir dir_;
  std::filesystem::path path_;
  bool mounted_ = false;
  std::string why_;
};

}  // namespace msprof::test
