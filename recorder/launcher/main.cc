// msprof-record: runs a program under the recorder and finalizes its trace.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "format/frame.h"
#include "format/trace_error.h"
#include "format/trace_reader.h"
#include "format/trace_seal.h"
#include "format/trace_writer.h"
#include "recorder/core/capture_description.h"
#include "recorder/core/recorder_config.h"
#include "recorder/launcher/child_process.h"
#include "recorder/launcher/launch_options.h"
#include "recorder/launcher/program_end.h"
#include "recorder/launcher/record_summary.h"
#include "recorder/launcher/tool_paths.h"
#include "recorder/launcher/trace_loss.h"

namespace fs = std::filesystem;
using namespace msprof::record;

namespace {

std::string prepend(const char* var, const std::string& value) {
  const char* old = std::getenv(var);
  return old != nullptr && *old != '\0' ? value + ":" + old : value;
}

std::map<std::string, std::string> recorder_environment(const LaunchOptions& o,
                                                        const ToolPaths& paths,
                                                        const fs::path& partial) {
  std::map<std::string, std::string> env;
  env["OPENCL_LAYERS"] = prepend("OPENCL_LAYERS", paths.layer.string());
  env["MSTX_INJECTION_PATH"] = paths.layer.string();
  env["NVTX_INJECTION64_PATH"] = paths.layer.string();
  env["MSTX_LIBRARY"] = paths.mstx_library.string();
  env["PYTHONPATH"] = prepend("PYTHONPATH", paths.python_dir.string());
  if (!o.keep_program_caches) {
    // Frameworks that load programs from their own binary caches would give
    // the trace binaries without source: off, as pyopencl's, tinygrad's
    // compiler cache and OpenCV's program cache.
    env["PYOPENCL_NO_CACHE"] = "1";
    env["CCACHE"] = "0";
    env["OPENCV_OPENCL_CACHE_ENABLE"] = "0";
  }
  env[RecorderConfig::kOutputVar] = partial.string();
  env[RecorderConfig::kIncludeVar] = o.include;
  env[RecorderConfig::kExcludeVar] = o.exclude;
  env[RecorderConfig::kKillVar] = o.kill ? "on" : "off";
  env[RecorderConfig::kFinalStateVar] = o.final_state ? "on" : "off";
  env[RecorderConfig::kLevelVar] = std::to_string(o.compression_level);
  env[RecorderConfig::kMinSavingVar] = std::to_string(o.min_saving);
  env[RecorderConfig::kMemoryBoundVar] = std::to_string(o.memory_bound);
  env[RecorderConfig::kWorkersVar] = std::to_string(o.compression_threads);
  env[RecorderConfig::kQuietVar] = o.quiet ? "1" : "0";
  env[RecorderConfig::kProgramBinariesVar] = o.program_binaries ? "1" : "0";
  env[RecorderConfig::kWriteBehindVar] = o.write_behind ? "1" : "0";
  env[RecorderConfig::kCommandVar] = join_command(o.command);
  return env;
}

// The output must be creatable before the program runs, not after.
void check_output(const LaunchOptions& o, const fs::path& partial) {
  if (fs::is_directory(o.output))
    throw std::runtime_error(o.output + " is a directory; pass -o FILE");
  if (fs::exists(o.output) && !o.force) {
    throw std::runtime_error(
        o.output + " already exists; pass -f to overwrite it or -o to choose another file");
  }
  fs::remove(partial);  // a leftover of an earlier run that died
  FILE* probe = std::fopen(partial.c_str(), "wx");
  if (probe == nullptr) {
    throw std::runtime_error("cannot write " + partial.string() + ": " + std::strerror(errno) +
                             "; choose a writable path with -o");
  }
  std::fclose(probe);
  fs::remove(partial);
  // A file system with no block left takes the empty file above but no
  // byte of a trace: the program need not run for nothing.
  if (no_space_left(o.output, {})) {
    throw std::runtime_error("no space left on the device of " + o.output +
                             "; free space there or choose another file with -o");
  }
}

// Makes the partial trace a complete one that opens by its index: the
// description of the run when the recorder wrote nothing, sealed. Throws
// when that cannot be written; the caller removes the partial file.
msprof::trace::SealResult finish_partial(const fs::path& partial,
                                         const std::map<std::string, std::string>& environment,
                                         const ChildResult& child) {
  std::error_code ec;
  if (fs::file_size(partial, ec) < msprof::trace::kFileHeaderSize || ec) {
    // The program never loaded the recorder (no OpenCL or mstx call), or
    // ended before it wrote a byte: a trace with its description and
    // nothing else says so, described from the variables the recorder
    // would have read.
    fs::remove(partial, ec);
    const auto config = RecorderConfig::from_variables([&](const char* name) -> const char* {
      const auto it = environment.find(name);
      return it == environment.end() ? nullptr : it->second.c_str();
    });
    msprof::trace::TraceWriter empty(partial);
    empty.write(describe_capture(*config, static_cast<std::uint64_t>(child.pid), "none", {}));
    empty.close();
  }
  const auto sealed = msprof::trace::seal_trace(partial);
  // Sealing appends an index and a trailer: on a full disk they may be cut.
  if (msprof::trace::TraceReader(partial).recovered()) {
    throw msprof::trace::IoError("the sealed trace has no usable index");
  }
  return sealed;
}

CaptureStats parse_stats(const std::string& line) {
  CaptureStats s;
  std::istringstream in(line.substr(6));
  std::string field;
  while (in >> field) {
    const auto eq = field.find('=');
    if (eq == std::string::npos) continue;
    const auto value = std::stoull(field.substr(eq + 1));
    if (field.starts_with("capture_ns")) s.capture_ns = value;
    if (field.starts_with("snapshot_bytes")) s.snapshot_bytes = value;
  }
  s.known = true;
  return s;
}

int run(int argc, char** argv) {
  const ParsedLaunch parsed = parse_launch_options(argc, argv);
  if (parsed.exit_now) return 0;
  const LaunchOptions& o = parsed.options;
  const ToolPaths paths = find_tool_paths();
  const fs::path partial = o.output + ".partial";
  check_output(o, partial);

  CaptureStats stats;
  WriteReport report;
  const auto environment = recorder_environment(o, paths, partial);
  const ChildResult child =
      run_child(o.command, environment, RecorderConfig::kStatusFdVar, [&](const std::string& line) {
        if (line.starts_with("stats ")) stats = parse_stats(line);
        read_write_report(line, report);
        return line == "captured-all";
      });

  if (program_died(child) && finished_ranges(partial) == 0) {
    // Nothing the program did can be replayed: no trace poses as a result,
    // and what the user learns is how the program ended.
    std::error_code ec;
    fs::remove(partial, ec);
    std::cerr << "msprof-record: the program " << program_end_text(child)
              << " before a range it finished reached the trace; no trace written\n";
    return child.exit_code;
  }
  // A trace that lost ranges the program finished (a full disk) is kept when
  // it holds some, and the status says it is short; one that cannot be
  // finished, or holds none of them, is removed, never renamed to the output.
  const std::size_t finished = report.finished.value_or(0);
  const auto lost = [&](const std::string& error, const std::string& outcome) {
    std::error_code ec;
    fs::remove(partial, ec);
    std::cerr << "msprof-record: error: " << trace_loss_text(o.output, error, outcome, child)
              << "\n";
    return trace_loss_status(child);
  };
  const std::string none_written = "no trace written, and the " + std::to_string(finished) +
                                   " range(s) the program finished are lost";
  msprof::trace::SealResult sealed;
  try {
    if (finished > 0 && finished_ranges(partial) == 0) throw std::runtime_error(report.error);
    sealed = finish_partial(partial, environment, child);
  } catch (const std::exception& e) {
    return lost(report.error.empty() ? e.what() : report.error,
                finished > 0 ? none_written : "no trace written");
  }
  const std::size_t kept = finished_ranges(partial);
  if (finished > 0 && kept == 0) return lost(report.error, none_written);
  fs::rename(partial, o.output);
  if (!o.quiet) {
    if (child.ended_by_us) {
      std::cerr
          << "msprof-record: every included range is captured; the program was ended (--kill on)\n";
    } else if (program_died(child)) {
      std::cerr << "msprof-record: the program " << program_end_text(child)
                << "; the trace keeps the " << finished_ranges(o.output)
                << " range(s) it finished\n";
    }
    if (!sealed.was_complete) {
      std::cerr << "msprof-record: the recording did not finish; recovered " << sealed.frames
                << " frames into a complete trace\n";
    }
    print_summary(std::cerr, o.output, stats);
  }
  if (kept < finished) {
    std::cerr << "msprof-record: error: "
              << trace_loss_text(o.output, report.error,
                                 "the trace keeps " + std::to_string(kept) + " of the " +
                                     std::to_string(finished) + " range(s) the program finished",
                                 child)
              << "\n";
    return trace_loss_status(child);
  }
  return child.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "msprof-record: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    std::cerr << "msprof-record: error: " << what << "\n";
    return what.starts_with("cannot run '") ? 127 : 1;
  }
}
