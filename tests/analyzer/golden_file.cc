#include "tests/analyzer/golden_file.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace msprof::test {

void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(MSPROF_GOLDEN_DIR) + "/" + name;
  if (const char* update = std::getenv("MSPROF_UPDATE_GOLDEN");
      update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(),
                  "missing golden file " << path << " (run with MSPROF_UPDATE_GOLDEN=1)");
  std::stringstream expected;
  expected << in.rdbuf();
  // Line by line, so a failure names the first line that differs.
  std::istringstream want(expected.str()), got(actual);
  std::string w, g;
  int line = 0;
  while (true) {
    ++line;
    const bool more_w = static_cast<bool>(std::getline(want, w));
    const bool more_g = static_cast<bool>(std::getline(got, g));
    if (!more_w && !more_g) break;
    INFO(name << " line " << line);
    REQUIRE(g == w);
  }
}

}  // namespace msprof::test
