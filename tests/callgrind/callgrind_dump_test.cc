#include "replayer/callgrind/callgrind_dump.h"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace msprof::replay {
namespace {

const std::filesystem::path kData = MSPROF_CALLGRIND_DATA_DIR;

std::string contents(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
}

// The one-line message read_callgrind_dump gives for `file`.
std::string error_for(const std::filesystem::path& file) {
  try {
    read_callgrind_dump(file);
  } catch (const CallgrindDumpError& error) {
    return error.what();
  }
  return "no error";
}

const std::vector<std::string> kEvents{"Ir",   "Dr",   "Dw", "I1mr", "D1mr", "D1mw", "ILmr",
                                       "DLmr", "DLmw", "Bc", "Bcm",  "Bi",   "Bim"};

TEST_CASE("a dump of the first kernel: its trigger, events, totals and caches") {
  const CallgrindDump dump = read_callgrind_dump(kData / "callgrind.out.1");
  CHECK(dump.file == kData / "callgrind.out.1");
  CHECK(dump.trigger == "Client Request: msprof range=0 pass=0 seq=5");
  CHECK(dump.client_request == "msprof range=0 pass=0 seq=5");
  CHECK(dump.events == kEvents);
  CHECK(dump.totals ==
        std::vector<std::uint64_t>{45700, 8121, 2015, 3, 260, 1, 3, 130, 1, 8196, 2054, 2008, 985});
  CHECK(dump.total("D1mr") == 260);
  CHECK(dump.total("Bim") == 985);
  CHECK_FALSE(dump.total("Ge").has_value());
  REQUIRE(dump.cache.i1.has_value());
  REQUIRE(dump.cache.d1.has_value());
  REQUIRE(dump.cache.ll.has_value());
  CHECK(dump.cache.i1->text() == "4096 B, 2-way, 64 B lines");
  CHECK(dump.cache.d1->text() == "4096 B, 2-way, 64 B lines");
  CHECK(dump.cache.ll->text() == "16384 B, 4-way, 64 B lines");
}

TEST_CASE("the trailing zero counts callgrind leaves out of totals: are zero") {
  // "totals: 12294 2049 2048 1 130 128 1 14 128 2049 10": no Bi, no Bim.
  const CallgrindDump dump = read_callgrind_dump(kData / "callgrind.out.2");
  CHECK(dump.client_request == "msprof range=0 pass=0 seq=6");
  CHECK(dump.events == kEvents);
  CHECK(dump.totals ==
        std::vector<std::uint64_t>{12294, 2049, 2048, 1, 130, 128, 1, 14, 128, 2049, 10, 0, 0});
  CHECK(dump.total("Bi") == 0);
  CHECK(dump.total("Bim") == 0);
}

TEST_CASE("the dump at program termination: no client request, nothing counted") {
  const CallgrindDump dump = read_callgrind_dump(kData / "callgrind.out");
  CHECK(dump.trigger == "Program termination");
  CHECK(dump.client_request.empty());
  CHECK(dump.events == kEvents);
  CHECK(dump.totals == std::vector<std::uint64_t>(kEvents.size(), 0));
}

TEST_CASE("the dumps of a folder, in the order callgrind wrote them") {
  // The data folder holds the source and README too: only dumps are listed.
  CHECK(list_callgrind_dumps(kData) == std::vector<std::filesystem::path>{kData / "callgrind.out.1",
                                                                          kData / "callgrind.out.2",
                                                                          kData / "callgrind.out"});

  test::TempDir dir;
  for (const char* name : {"callgrind.out.10", "callgrind.out.9", "callgrind.out.2",
                           "callgrind.out.x", "callgrind.out.1.tmp", "callgrind.out.",
                           "callgrind.out.+3", "other.out.1", "callgrind.outer.4"}) {
    write(dir / name, "");
  }
  std::filesystem::create_directory(dir / "callgrind.out.5");
  CHECK(list_callgrind_dumps(dir.path()) ==
        std::vector<std::filesystem::path>{dir / "callgrind.out.2", dir / "callgrind.out.9",
                                           dir / "callgrind.out.10"});
  CHECK(list_callgrind_dumps(dir.path(), "other.out") ==
        std::vector<std::filesystem::path>{dir / "other.out.1"});
  CHECK_THROWS_AS(list_callgrind_dumps(dir / "absent"), ReplayError);
}

TEST_CASE("a dump cut anywhere is truncated, in one line naming the file") {
  test::TempDir dir;
  const std::string whole = contents(kData / "callgrind.out.1");
  REQUIRE(whole.size() > 100);
  const std::filesystem::path cut = dir / "callgrind.out.7";
  // Before the events, in the cost lines, in the totals line, before its
  // newline.
  for (const std::size_t size :
       {std::size_t{40}, whole.size() / 2, whole.size() - 5, whole.size() - 1}) {
    CAPTURE(size);
    write(cut, whole.substr(0, size));
    const std::string message = error_for(cut);
    CHECK(message == "callgrind output " + cut.string() +
                         " is truncated (it does not end with its 'totals:' line); the "
                         "simulated run stopped before it finished writing it");
    CHECK(message.find('\n') == std::string::npos);
  }
  // Blank lines after the totals line are not a cut.
  write(cut, whole + "\n\n");
  CHECK(read_callgrind_dump(cut).total("Ir") == 45700);
}

TEST_CASE("what is not a callgrind dump is said so, naming the file") {
  test::TempDir dir;
  const std::filesystem::path file = dir / "callgrind.out.1";
  write(file, "hello\nworld\n");
  CHECK(error_for(file) == file.string() +
                               " is not a callgrind output file (it starts with neither "
                               "'# callgrind format' nor 'version:')");
  write(file, std::string("\x7f"
                          "ELF\x02\x01\x01\0\0\0",
                          10));
  CHECK(error_for(file).find(" is not a callgrind output file") != std::string::npos);
  write(file, "");
  CHECK(error_for(file) ==
        "callgrind output " + file.string() + " is empty; the simulated run did not write it");
  write(file, "# callgrind format\nevents: Ir Dr\ntotals: 12 x\n");
  CHECK(error_for(file) ==
        "callgrind output " + file.string() + ", line 3: 'x' in 'totals:' is not a count");
  write(file, "# callgrind format\nevents: Ir\ntotals: 1 2\n");
  CHECK(error_for(file) ==
        "callgrind output " + file.string() + ", line 3: 'totals:' has 2 counts for 1 events");
  write(file, "# callgrind format\ntotals: 1\n");
  CHECK(error_for(file) ==
        "callgrind output " + file.string() + ", line 2: 'totals:' before 'events:'");
  const std::filesystem::path absent = dir / "absent";
  CHECK_THROWS_WITH_AS(
      read_callgrind_dump(absent),
      ("cannot open callgrind output " + absent.string() + "; the simulated run did not write it")
          .c_str(),
      ReplayError);
}

TEST_CASE("the totals of a file's parts add up") {
  test::TempDir dir;
  const std::filesystem::path file = dir / "callgrind.out.1";
  write(file,
        "# callgrind format\nversion: 1\npart: 1\nevents: Ir Dr\nfn=a\n3 5 1\ntotals: 5 1\n"
        "part: 2\nevents: Ir Dr\nfn=b\n+2 7\ntotals: 7\n");
  const CallgrindDump dump = read_callgrind_dump(file);
  CHECK(dump.totals == std::vector<std::uint64_t>{12, 1});
}

}  // namespace
}  // namespace msprof::replay
