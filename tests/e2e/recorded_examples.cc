#include "tests/e2e/recorded_examples.h"

#include <doctest/doctest.h>

#include <map>
#include <memory>

#include "tests/e2e/tool_commands.h"
#include "tests/support/temp_dir.h"

namespace msprof::test {

const RecordedExample& recorded(const std::string& name) {
  static TempDir folder;
  static std::map<std::string, std::unique_ptr<RecordedExample>> cache;
  if (const auto it = cache.find(name); it != cache.end()) return *it->second;

  auto example_run = std::make_unique<RecordedExample>();
  example_run->trace = folder / (name + ".fb");
  const bool is_python = name.ends_with(".py");
  const std::vector<std::string> program = is_python
                                               ? std::vector<std::string>{python(), example(name)}
                                               : std::vector<std::string>{example_binary(name)};
  flush_before_fork();
  example_run->record = record({"-o", example_run->trace.string()}, program, folder.path());
  INFO("msprof-record of ", name, ":\n", example_run->record.err);
  // killed.py ends itself with SIGKILL; the launcher returns 128+9 and keeps
  // the trace.
  const int expected = name == "killed.py" ? 128 + 9 : 0;
  REQUIRE(example_run->record.exit_code == expected);
  REQUIRE(std::filesystem::exists(example_run->trace));
  return *cache.emplace(name, std::move(example_run)).first->second;
}

}  // namespace msprof::test
