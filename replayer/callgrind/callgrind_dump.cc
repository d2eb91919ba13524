#include "replayer/callgrind/callgrind_dump.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <system_error>
#include <utility>

namespace msprof::replay {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> found;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t begin = text.find_first_not_of(" \t\r", start);
    if (begin == std::string_view::npos) break;
    const std::size_t end = std::min(text.find_first_of(" \t\r", begin), text.size());
    found.push_back(text.substr(begin, end - begin));
    start = end;
  }
  return found;
}

// The file as the messages name it: "callgrind output /tmp/x/callgrind.out.3".
std::string shown(const std::filesystem::path& file) {
  return "callgrind output " + file.string();
}

// "desc: D1 cache: 4096 B, 64 B, 2-way associative": size, line, ways.
void read_cache_description(std::string_view rest, CacheModel& cache) {
  std::optional<CacheLevelModel>* slot = nullptr;
  if (starts_with(rest, "I1 cache: ")) slot = &cache.i1;
  if (starts_with(rest, "D1 cache: ")) slot = &cache.d1;
  if (starts_with(rest, "LL cache: ")) slot = &cache.ll;
  if (slot == nullptr) return;
  const std::string numbers(rest.substr(10));
  std::uint64_t size = 0;
  unsigned line = 0, ways = 0;
  // The description only informs; a form we do not know leaves the level out.
  if (std::sscanf(numbers.c_str(), "%" SCNu64 " B, %u B, %u-way", &size, &line, &ways) == 3) {
    *slot = CacheLevelModel{size, ways, line};
  }
}

// Cost lines (the bulk of a file) start with a position: a number, or a
// relative one (+3, -2) or "*" for the same.
bool is_cost_line(std::string_view line) {
  const char c = line.front();
  return std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '*';
}

}  // namespace

std::optional<std::uint64_t> CallgrindDump::total(std::string_view event) const {
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i] == event) return i < totals.size() ? totals[i] : 0;
  }
  return std::nullopt;
}

CallgrindDump read_callgrind_dump(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ReplayError("cannot open " + shown(file) + "; the simulated run did not write it");
  CallgrindDump dump;
  dump.file = file;
  std::string line;
  std::uint64_t line_number = 0;
  bool seen_text = false;
  bool has_events = false;
  bool has_totals = false;
  bool ends_with_totals = false;
  bool last_line_complete = true;
  while (std::getline(in, line)) {
    ++line_number;
    // getline reaches end of file only on a last line without its newline.
    last_line_complete = !in.eof();
    if (line.empty()) continue;
    if (!seen_text) {
      seen_text = true;
      if (line != "# callgrind format" && !starts_with(line, "version:")) {
        throw CallgrindDumpError(file.string() +
                                 " is not a callgrind output file (it starts with neither "
                                 "'# callgrind format' nor 'version:')");
      }
    }
    if (is_cost_line(line)) {
      ends_with_totals = false;
      continue;
    }
    const std::string_view text(line);
    if (starts_with(text, "totals:")) {
      if (!has_events) {
        throw CallgrindDumpError(shown(file) + ", line " + std::to_string(line_number) +
                                 ": 'totals:' before 'events:'");
      }
      const auto counts = words(text.substr(7));
      if (counts.size() > dump.events.size()) {
        throw CallgrindDumpError(shown(file) + ", line " + std::to_string(line_number) +
                                 ": 'totals:' has " + std::to_string(counts.size()) +
                                 " counts for " + std::to_string(dump.events.size()) + " events");
      }
      // Callgrind leaves out trailing zero counts ("totals: 329 65").
      for (std::size_t i = 0; i < counts.size(); ++i) {
        std::uint64_t count = 0;
        const auto [end, error] =
            std::from_chars(counts[i].data(), counts[i].data() + counts[i].size(), count);
        if (error != std::errc{} || end != counts[i].data() + counts[i].size()) {
          throw CallgrindDumpError(shown(file) + ", line " + std::to_string(line_number) + ": '" +
                                   std::string(counts[i]) + "' in 'totals:' is not a count");
        }
        dump.totals[i] += count;
      }
      has_totals = true;
      ends_with_totals = true;
      continue;
    }
    ends_with_totals = false;
    if (starts_with(text, "events:")) {
      std::vector<std::string> events;
      for (const auto word : words(text.substr(7))) events.emplace_back(word);
      if (has_events && events != dump.events) {
        throw CallgrindDumpError(shown(file) + ", line " + std::to_string(line_number) +
                                 ": a second 'events:' line names other events");
      }
      if (events.empty()) {
        throw CallgrindDumpError(shown(file) + ", line " + std::to_string(line_number) +
                                 ": 'events:' names no event");
      }
      dump.events = std::move(events);
      dump.totals.resize(dump.events.size(), 0);
      has_events = true;
    } else if (starts_with(text, "desc: Trigger: ")) {
      dump.trigger = text.substr(15);
      constexpr std::string_view kClientRequest = "Client Request: ";
      if (starts_with(dump.trigger, kClientRequest)) {
        dump.client_request = dump.trigger.substr(kClientRequest.size());
      }
    } else if (starts_with(text, "desc: ")) {
      read_cache_description(text.substr(6), dump.cache);
    }
  }
  if (in.bad()) throw ReplayError("cannot read " + shown(file));
  if (!seen_text) {
    throw CallgrindDumpError(shown(file) + " is empty; the simulated run did not write it");
  }
  // Callgrind ends every part with its "totals:" line: a file that does not
  // end with one was cut while it was written.
  if (!has_events || !has_totals || !ends_with_totals || !last_line_complete) {
    throw CallgrindDumpError(shown(file) +
                             " is truncated (it does not end with its 'totals:' line); the "
                             "simulated run stopped before it finished writing it");
  }
  return dump;
}

std::vector<std::filesystem::path> list_callgrind_dumps(const std::filesystem::path& folder,
                                                        std::string_view base) {
  std::vector<std::pair<std::uint64_t, std::filesystem::path>> numbered;
  std::optional<std::filesystem::path> at_termination;
  std::error_code error;
  std::filesystem::directory_iterator it(folder, error);
  for (; !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    std::error_code entry_error;
    if (!it->is_regular_file(entry_error)) continue;
    const std::string name = it->path().filename().string();
    if (name == base) {
      at_termination = it->path();
      continue;
    }
    if (name.size() <= base.size() + 1 || !starts_with(name, base) || name[base.size()] != '.') {
      continue;
    }
    const std::string_view suffix = std::string_view(name).substr(base.size() + 1);
    std::uint64_t number = 0;
    const auto [end, parse_error] =
        std::from_chars(suffix.data(), suffix.data() + suffix.size(), number);
    if (parse_error != std::errc{} || end != suffix.data() + suffix.size()) continue;
    numbered.emplace_back(number, it->path());
  }
  if (error) {
    throw ReplayError("cannot list the callgrind output folder " + folder.string() + ": " +
                      error.message());
  }
  std::sort(numbered.begin(), numbered.end());
  std::vector<std::filesystem::path> dumps;
  dumps.reserve(numbered.size() + 1);
  for (auto& [number, path] : numbered) dumps.push_back(std::move(path));
  if (at_termination) dumps.push_back(std::move(*at_termination));
  return dumps;
}

}  // namespace msprof::replay
