#include <doctest/doctest.h>

#include <csignal>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/trace_error.h"
#include "format/trace_reader.h"
#include "format/trace_writer.h"
#include "tests/format/sample_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::TempDir;

TEST_CASE("an unwritable path is an I/O error naming the path") {
  CHECK_THROWS_WITH_AS(TraceWriter("/nonexistent-dir/t.fb"),
                       doctest::Contains("/nonexistent-dir/t.fb"), IoError);
}

TEST_CASE("a full disk surfaces as an I/O error and what was written stays readable") {
  TempDir dir;
  const auto path = dir / "t.fb";
  // The child writes under a file-size limit, as on a full disk; the parent
  // then reads what it left.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{64 * 1024, 64 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    int status = 3;
    try {
      TraceWriter::Options options;
      options.chunk_size = 4096;
      TraceWriter writer(path, options);
      for (int i = 0; i < 1000; ++i) {
        Range range;
        range.name = "range" + std::to_string(i);
        range.initial_state = {
            {1, writer.put_blob(msprof::test::pattern_bytes(3000, static_cast<unsigned>(i)))}};
        writer.write(range);
      }
      writer.close();
    } catch (const IoError& e) {
      status = std::string(e.what()).find("File too large") != std::string::npos ? 0 : 4;
    } catch (...) {
      status = 5;
    }
    ::_exit(status);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  TraceReader reader(path);
  CHECK(reader.recovered());
  const auto ranges = reader.read_all<Range>();
  CHECK(ranges.size() > 5);
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    CHECK(ranges[i].name == "range" + std::to_string(i));
    CHECK(reader.read_blob(ranges[i].initial_state[0].blob) ==
          msprof::test::pattern_bytes(3000, static_cast<unsigned>(i)));
  }
}
