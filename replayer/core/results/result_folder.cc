#include "replayer/core/results/result_folder.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>

#include "replayer/core/replay_error.h"
#include "replayer/core/results/metrics_files.h"
#include "replayer/core/results/summary_csv.h"
#include "replayer/core/results/summary_json.h"

namespace msprof::replay {

namespace fs = std::filesystem;

namespace {

// Written beside its final name and renamed when whole, so a failure (a
// full disk) never leaves a half-written file under that name.
void write_file(const fs::path& path, const std::string& text) {
  const fs::path partial = path.string() + ".partial";
  std::ofstream out(partial, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  std::error_code ec;
  if (out) fs::rename(partial, path, ec);
  if (!out || ec) {
    fs::remove(partial, ec);
    throw ReplayError("cannot write " + path.string() + "; check --output and the free space");
  }
}

fs::path make_folder(const fs::path& parent) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
  std::error_code ec;
  fs::create_directories(parent, ec);
  // Several replays in one second (or one process) get consecutive ids.
  for (unsigned attempt = 0; attempt < 1000; ++attempt) {
    char name[64];
    std::snprintf(name, sizeof name, "OPPROF_%s_%06u", stamp,
                  static_cast<unsigned>((static_cast<unsigned>(::getpid()) + attempt) % 1000000));
    const fs::path path = parent / name;
    if (fs::create_directory(path, ec)) return path;
    if (ec) break;
  }
  throw ReplayError("cannot create a result folder under " + parent.string() +
                    (ec ? ": " + ec.message() : std::string()) + "; check --output");
}

std::string op_basic_info(const ReplayResult& result, const KernelResult& k) {
  std::string row = csv_field(k.name) + ",kernel," + format_number(k.duration_us.median) + ",";
  row += (k.work_groups != 0 ? std::to_string(k.work_groups) : std::string()) + ",,";
  row += std::to_string(result.device.index) + "," + std::to_string(result.recorded_pid) + ",,";
  row += result.device.max_clock_mhz != 0 ? std::to_string(result.device.max_clock_mhz) : "";
  return "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device ID,PID,Current "
         "Freq,Rated Freq\n" +
         row + "\n";
}

std::string pass_durations(const KernelResult& k) {
  std::string out = "pass,duration_us,queued_us\n";
  for (std::size_t i = 0; i < k.pass_us.size(); ++i) {
    out += std::to_string(i) + "," + format_number(k.pass_us[i]) + "," +
           format_number(i < k.queued_us.size() ? k.queued_us[i] : 0) + "\n";
  }
  return out;
}

}  // namespace

fs::path write_result_folder(const ReplayResult& result, const fs::path& parent) {
  const fs::path folder = make_folder(parent);
  try {
    for (const auto& range : result.ranges) {
      for (const auto& kernel : range.kernels) {
        const fs::path dir = folder / kernel.folder;
        std::error_code ec;
        fs::create_directory(dir, ec);
        if (ec) throw ReplayError("cannot create " + dir.string() + ": " + ec.message());
        write_file(dir / "OpBasicInfo.csv", op_basic_info(result, kernel));
        write_file(dir / "PassDurations.csv", pass_durations(kernel));
        for (const MetricGroup group : result.metrics.groups) {
          const std::string text = group_csv(kernel, group);
          if (!text.empty())
            write_file(dir / (std::string(metric_group_name(group)) + ".csv"), text);
        }
      }
    }
    write_file(folder / "summary.csv", summary_csv(result));
    write_file(folder / "summary.json", summary_json(result));
  } catch (...) {
    // A folder missing some of its files is no result: none is left.
    std::error_code ec;
    fs::remove_all(folder, ec);
    throw;
  }
  return folder;
}

}  // namespace msprof::replay
