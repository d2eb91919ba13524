// msprof-analyze: a thin front over analyzer/core. Every subcommand reads
// through the same TraceReader (or replay result loader) and prints, or
// writes, what its consumer in core produces.
#include <CLI/CLI.hpp>
#include <cctype>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/analyze_error.h"
#include "analyzer/core/chrome_trace.h"
#include "analyzer/core/html_report.h"
#include "analyzer/core/metric_comparison.h"
#include "analyzer/core/metric_gate.h"
#include "analyzer/core/object_table.h"
#include "analyzer/core/range_listing.h"
#include "analyzer/core/replay_result_reader.h"
#include "analyzer/core/result_comparison.h"
#include "analyzer/core/trace_extractor.h"
#include "analyzer/core/trace_repair.h"
#include "analyzer/core/trace_summary.h"
#include "analyzer/core/trace_verifier.h"
#include "format/frame.h"
#include "format/trace_error.h"
#include "format/trace_reader.h"
#include "format/trace_version.h"

namespace {

using namespace msprof;
namespace fs = std::filesystem;

constexpr int kExitUnsound = 1;
constexpr int kExitError = 2;
// compare --fail-if: a metric crossed its threshold, or could not be checked.
constexpr int kExitGate = 3;

// Warnings wait until the command has done its work: when it fails, the one
// error line is all the user gets.
std::vector<std::string> pending_warnings;
void warn(const std::string& message) {
  pending_warnings.push_back(message);
}
void print_warnings() {
  for (const auto& w : pending_warnings) std::cerr << "msprof-analyze: warning: " << w << "\n";
}

trace::TraceReader open_trace(const std::string& path, bool quiet = false) {
  return trace::TraceReader(path,
                            quiet ? trace::TraceReader::Warn{} : trace::TraceReader::Warn(warn));
}

// An output is never written over without -f, and never left half-written:
// it is written beside its place and renamed there when complete.
void check_overwrite(const std::string& path, bool force) {
  std::error_code ec;
  if (path.empty()) throw analyze::AnalyzeError("-o '' names no output; give a path");
  if (std::filesystem::is_directory(path, ec)) {
    throw analyze::AnalyzeError(path +
                                " is a directory, which -f does not overwrite; give a file "
                                "name with -o (a file in it, or another path)");
  }
  if (!force && std::filesystem::exists(path, ec)) {
    throw analyze::AnalyzeError(path +
                                " already exists; pass -f to overwrite it or choose another -o");
  }
}

void write_file(const std::string& path, const std::string& text, bool force) {
  check_overwrite(path, force);
  const std::string partial = path + ".partial";
  std::ofstream out(partial, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  std::error_code ec;
  if (out) std::filesystem::rename(partial, path, ec);
  if (!out || ec) {
    std::filesystem::remove(partial, ec);
    throw analyze::AnalyzeError("cannot write " + path +
                                "; check that its folder exists and is writable");
  }
}

void check_format(const std::string& format) {
  if (format != "text" && format != "json") {
    throw analyze::AnalyzeError("unknown --format '" + format + "'; use text or json");
  }
}

// A trace starts with the container magic; anything else is taken for a
// replay result, whose loader names what is wrong with it.
bool is_trace_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, sizeof magic);
  return in && std::equal(std::begin(magic), std::end(magic), trace::kFileMagic.begin());
}

// A JSON document starts with '{' or '[' after any white space.
bool starts_like_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  while (in.get(c) && std::isspace(static_cast<unsigned char>(c))) {
  }
  return in && (c == '{' || c == '[');
}

struct Options {
  std::string trace, range, format = "text", out, dtype = "uint8", a, b;
  std::vector<std::string> fail_if;
  bool repair = false;
  bool force = false;
};

int run_info(const Options& o) {
  check_format(o.format);
  const auto reader = open_trace(o.trace);
  const auto summary = analyze::summarize_trace(reader, o.trace);
  std::cout << (o.format == "json" ? analyze::summary_json(summary).dump(2) + "\n"
                                   : analyze::summary_text(summary));
  return 0;
}

int run_show(const Options& o) {
  check_format(o.format);
  const auto reader = open_trace(o.trace);
  const analyze::ObjectTable table(reader);
  const auto& range = table.find_range(o.range);
  std::cout << (o.format == "json" ? analyze::range_json(table, range).dump(2) + "\n"
                                   : analyze::range_text(table, range));
  return 0;
}

int run_extract(const Options& o) {
  const auto reader = open_trace(o.trace);
  const analyze::ObjectTable table(reader);
  analyze::ExtractOptions options;
  if (!o.range.empty()) options.range = o.range;
  options.dtype = o.dtype;
  options.display_path = o.trace;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (o.out.empty()) throw analyze::AnalyzeError("-o '' names no folder; give the output folder");
  if (!o.force && fs::exists(o.out, ec) &&
      !(fs::is_directory(o.out, ec) && fs::is_empty(o.out, ec))) {
    throw analyze::AnalyzeError(o.out +
                                " exists and is not an empty folder; pass -f to replace it or "
                                "choose another -o");
  }
  // Extracted into a folder beside it and moved in place when complete, so
  // a failure half-way (a full or read-only disk) leaves nothing behind.
  const fs::path staging = fs::path(o.out).lexically_normal().string() + ".partial";
  fs::remove_all(staging, ec);
  nlohmann::ordered_json manifest;
  try {
    manifest = analyze::extract_trace(reader, table, staging, options);
    fs::remove_all(o.out, ec);
    fs::rename(staging, o.out);
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(staging, ec);
    throw analyze::AnalyzeError("cannot write " + o.out + " (" + e.code().message() +
                                "); check that its folder is writable");
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
  std::cout << "extracted " << manifest["programs"].size() << " programs and "
            << manifest["ranges"].size() << " ranges to " << o.out << " (manifest.json)\n";
  return 0;
}

int run_verify(const Options& o) {
  check_format(o.format);
  if (o.repair && o.out.empty())
    throw analyze::AnalyzeError("--repair needs -o OUT, the path of the repaired copy");
  if (!o.repair && !o.out.empty())
    throw analyze::AnalyzeError("-o is only for --repair; add --repair or drop -o");
  const auto reader = open_trace(o.trace, true);
  const auto report = analyze::verify_trace(reader, o.trace);
  std::cout << (o.format == "json" ? analyze::verify_json(report).dump(2) + "\n"
                                   : analyze::verify_text(report));
  if (!o.repair) return report.sound() ? 0 : kExitUnsound;

  std::error_code ec;
  // Its own input is refused by repair_trace, with a message of its own.
  if (!std::filesystem::equivalent(o.trace, o.out, ec)) check_overwrite(o.out, o.force);
  const auto repaired = analyze::repair_trace(reader, o.out);
  for (const auto& d : repaired.dropped) warn("repair left out " + d);
  const auto copy = open_trace(o.out, true);
  const auto check = analyze::verify_trace(copy, o.out);
  std::cerr << "msprof-analyze: repaired copy " << o.out << ": " << repaired.records << " records, "
            << repaired.blobs << " blobs, " << (check.sound() ? "sound" : "NOT sound") << "\n";
  return check.sound() ? 0 : kExitUnsound;
}

int run_export(const Options& o) {
  if (o.format != "chrome")
    throw analyze::AnalyzeError("unknown --format '" + o.format + "'; use chrome");
  nlohmann::ordered_json events;
  if (is_trace_file(o.trace)) {
    const auto reader = open_trace(o.trace);
    events = analyze::chrome_trace_of_trace(analyze::ObjectTable(reader));
  } else if (std::filesystem::is_regular_file(o.trace) && !starts_like_json(o.trace)) {
    // Either kind is welcome here, so name both rather than the one guessed.
    throw analyze::AnalyzeError(o.trace +
                                " is neither an msprof-replay trace (bad magic) nor a replay "
                                "result (not JSON); give a trace from msprof-record or a "
                                "summary.json or OPPROF_ folder from msprof-replay");
  } else {
    events = analyze::chrome_trace_of_result(analyze::load_replay_result(o.trace));
  }
  write_file(o.out, events.dump() + "\n", o.force);
  return 0;
}

int run_compare(const Options& o) {
  check_format(o.format);
  std::vector<analyze::MetricGate> gates;
  for (const auto& spec : o.fail_if) gates.push_back(analyze::parse_metric_gate(spec));
  const auto a = analyze::load_replay_result(o.a);
  const auto b = analyze::load_replay_result(o.b);
  analyze::check_gate_metrics(gates, a, b);
  const auto rows = analyze::compare_results(a, b);
  const auto failures = analyze::gate_failures(gates, analyze::compare_metrics(a, b), a, b);
  if (o.format == "json") {
    auto json = analyze::comparison_json(a, b, rows);
    if (!gates.empty()) json["fail_if"] = analyze::gate_failures_json(failures);
    std::cout << json.dump(2) << "\n";
  } else {
    std::cout << analyze::comparison_text(a, b, rows);
  }
  // On stderr, so that a CI log shows them whatever the format of stdout.
  for (const auto& f : failures) std::cerr << "msprof-analyze: " << f.line() << "\n";
  return failures.empty() ? 0 : kExitGate;
}

int run_report(const Options& o) {
  const auto a = analyze::load_replay_result(o.a);
  std::optional<analyze::ReplayResult> b;
  if (!o.b.empty()) b = analyze::load_replay_result(o.b);
  write_file(o.out, analyze::html_report(a, b ? &*b : nullptr), o.force);
  return 0;
}

// The one line a user sees: what went wrong and, where the message does not
// say it already, what to do.
std::string with_hint(const std::string& what, const char* hint) {
  return what.find("; ") != std::string::npos ? what : what + "; " + hint;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"msprof-analyze: inspect msprof traces and replay results"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("msprof-analyze ") + trace::kToolVersion);
  Options o;
  int (*run)(const Options&) = nullptr;

  auto* info = app.add_subcommand("info", "trace info and one line per range (reads no blobs)");
  info->add_option("TRACE", o.trace, "trace file")->required();
  info->add_option("--format", o.format, "text or json");
  info->callback([&] { run = run_info; });

  auto* show = app.add_subcommand("show", "one range's commands, arguments and buffer states");
  show->add_option("TRACE", o.trace, "trace file")->required();
  show->add_option("RANGE", o.range, "range name (or capture id)")->required();
  show->add_option("--format", o.format, "text or json");
  show->callback([&] { run = run_show; });

  auto* extract = app.add_subcommand(
      "extract", "programs, binaries and buffer states as files, with a manifest");
  extract->add_option("TRACE", o.trace, "trace file")->required();
  extract->add_option("RANGE", o.range, "only this range (name or capture id)");
  extract->add_option("-o,--output", o.out, "output folder")->required();
  extract->add_flag("-f,--force", o.force, "replace an existing output folder");
  extract->add_option("--dtype", o.dtype, "numpy dtype of the .npy files (default uint8)");
  extract->callback([&] { run = run_extract; });

  auto* verify =
      app.add_subcommand("verify", "check every frame, blob and reference; exit 0 when sound");
  verify->add_option("TRACE", o.trace, "trace file")->required();
  verify->add_flag("--repair", o.repair, "write a complete copy (with index) to -o");
  verify->add_option("-o,--output", o.out, "where --repair writes the copy");
  verify->add_flag("-f,--force", o.force, "overwrite an existing copy");
  verify->add_option("--format", o.format, "text or json");
  verify->callback([&] { run = run_verify; });

  auto* exp = app.add_subcommand("export", "a trace or replay result as Chrome trace events");
  exp->add_option("INPUT", o.trace, "trace file, OPPROF_* folder or summary.json")->required();
  exp->add_option("--format", o.format, "chrome")->required();
  exp->add_option("-o,--output", o.out, "output .json file")->required();
  exp->add_flag("-f,--force", o.force, "overwrite an existing output file");
  exp->callback([&] { run = run_export; });

  auto* compare = app.add_subcommand("compare", "two replay results, per range and kernel");
  compare->add_option("A", o.a, "OPPROF_* folder or summary.json")->required();
  compare->add_option("B", o.b, "OPPROF_* folder or summary.json")->required();
  compare->add_option("--format", o.format, "text or json");
  compare
      ->add_option("--fail-if", o.fail_if,
                   "GROUP.COLUMN+PCT% or -PCT%: exit 3 when a kernel's metric changes past it "
                   "from A to B (repeatable)")
      ->type_name("GATE")
      ->allow_extra_args(false);
  compare->callback([&] { run = run_compare; });

  auto* report = app.add_subcommand("report", "a self-contained HTML report of a replay result");
  report->add_option("RESULT", o.a, "OPPROF_* folder or summary.json")->required();
  report->add_option("OTHER", o.b, "a second result to compare with (e.g. kernel mode)");
  report->add_option("-o,--output", o.out, "output .html file")->required();
  report->add_flag("-f,--force", o.force, "overwrite an existing output file");
  report->callback([&] { run = run_report; });

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "msprof-analyze: error: " << e.what() << "; see msprof-analyze --help\n";
    return kExitError;
  }
  try {
    const int status = run(o);
    print_warnings();
    return status;
  } catch (const trace::IoError& e) {
    std::cerr << "msprof-analyze: error: " << with_hint(e.what(), "check the path") << "\n";
  } catch (const trace::UnsupportedVersionError& e) {
    std::cerr << "msprof-analyze: error: " << with_hint(e.what(), "update msprof-analyze") << "\n";
  } catch (const trace::TraceError& e) {
    std::cerr << "msprof-analyze: error: "
              << with_hint(e.what(), "run msprof-analyze verify on the trace") << "\n";
  } catch (const analyze::AnalyzeError& e) {
    std::cerr << "msprof-analyze: error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "msprof-analyze: error: " << with_hint(e.what(), "please report this") << "\n";
  }
  return kExitError;
}
