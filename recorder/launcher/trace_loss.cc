#include "recorder/launcher/trace_loss.h"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

#include "recorder/launcher/program_end.h"

namespace msprof::record {

bool read_write_report(const std::string& line, WriteReport& report) {
  static const std::string kFinished = "finished ranges=";
  static const std::string kFailed = "write-failed ";
  if (line.starts_with(kFinished)) {
    report.finished = std::stoull(line.substr(kFinished.size()));
    return true;
  }
  if (line.starts_with(kFailed)) {
    if (report.error.empty()) report.error = line.substr(kFailed.size());
    return true;
  }
  return false;
}

bool no_space_left(const std::filesystem::path& output, const std::string& error) {
  if (error.find(std::strerror(ENOSPC)) != std::string::npos) return true;
  struct statvfs fs {};
  const auto folder =
      output.parent_path().empty() ? std::filesystem::path(".") : output.parent_path();
  return ::statvfs(folder.c_str(), &fs) == 0 && fs.f_bavail == 0;
}

std::string trace_loss_text(const std::filesystem::path& output, const std::string& error,
                            const std::string& outcome, const ChildResult& child) {
  const bool full = no_space_left(output, error);
  std::string text = full ? "no space left on the device of " + output.string()
                          : "writing " + output.string() + " failed" +
                                (error.empty() ? std::string() : ": " + error);
  text += "; " + outcome + " (the program " + program_end_text(child) + "); ";
  text += full ? "free space there or choose another file with -o" : "choose another file with -o";
  return text;
}

int trace_loss_status(const ChildResult& child) {
  return child.exit_code != 0 ? child.exit_code : 1;
}

}  // namespace msprof::record
