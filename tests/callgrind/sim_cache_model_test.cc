#include "replayer/callgrind/sim_cache_model.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include "replayer/core/replay_error.h"
#include "tests/support/temp_dir.h"

namespace msprof::replay {
namespace {

struct FakeCache {
  const char* level;
  const char* type;
  const char* size;
  const char* ways;
  const char* line;
};

// A sysfs tree under `root` describing cpu0's caches as Linux does.
void write_sysfs(const std::filesystem::path& root, const std::vector<FakeCache>& caches) {
  const auto folder = root / "devices/system/cpu/cpu0/cache";
  std::filesystem::create_directories(folder);
  for (std::size_t i = 0; i < caches.size(); ++i) {
    const auto index = folder / ("index" + std::to_string(i));
    std::filesystem::create_directory(index);
    const auto put = [&](const char* name, const char* value) {
      std::ofstream(index / name) << value << "\n";
    };
    put("level", caches[i].level);
    put("type", caches[i].type);
    put("size", caches[i].size);
    put("ways_of_associativity", caches[i].ways);
    put("coherency_line_size", caches[i].line);
    put("number_of_sets", "0");  // not read: the set count follows from the others
  }
}

bool has_power_of_two_sets(const std::optional<CacheLevelModel>& level) {
  const std::uint64_t sets = level ? level->sets() : 0;
  return sets != 0 && (sets & (sets - 1)) == 0 &&
         level->size_bytes == sets * level->ways * level->line_bytes;
}

TEST_CASE("the host's caches from sysfs: L1 instruction and data, the highest unified level") {
  test::TempDir root;
  write_sysfs(root.path(), {{"1", "Data", "48K", "12", "64"},
                            {"1", "Instruction", "32K", "8", "64"},
                            {"2", "Unified", "2048K", "16", "64"},
                            {"3", "Unified", "32768K", "16", "64"}});
  const SimulatedCacheModel host = host_cache_model(root.path());
  CHECK(host.notes.empty());
  REQUIRE(host.model.i1.has_value());
  REQUIRE(host.model.d1.has_value());
  REQUIRE(host.model.ll.has_value());
  CHECK(host.model.i1->text() == "32768 B, 8-way, 64 B lines");
  CHECK(host.model.d1->text() == "49152 B, 12-way, 64 B lines");
  CHECK(host.model.ll->text() == "33554432 B, 16-way, 64 B lines");
  CHECK(callgrind_cache_arguments(host.model) ==
        std::vector<std::string>{"--I1=32768,8,64", "--D1=49152,12,64", "--LL=33554432,16,64"});
}

TEST_CASE("a set count that is not a power of two is adjusted as valgrind does, with a note") {
  test::TempDir root;
  // 30 MiB, 12-way, 64 B lines: 40960 sets.
  write_sysfs(root.path(), {{"1", "Instruction", "32K", "8", "64"},
                            {"1", "Data", "32K", "8", "64"},
                            {"3", "Unified", "30720K", "12", "64"},
                            {"2", "Unified", "1280K", "10", "64"}});
  const SimulatedCacheModel host = host_cache_model(root.path());
  REQUIRE(host.model.ll.has_value());
  // 32768 sets, 12 x 40960 / 32768 = 15 ways: the same 30 MiB.
  CHECK(host.model.ll->text() == "31457280 B, 15-way, 64 B lines");
  CHECK(has_power_of_two_sets(host.model.ll));
  REQUIRE(host.notes.size() == 1);
  CHECK(host.notes[0] ==
        "this CPU's LL cache (31457280 B, 12-way, 64 B lines) has 40960 sets, not a power of "
        "two as callgrind needs; simulated as valgrind does it: 31457280 B, 15-way, 64 B lines");
}

TEST_CASE("valgrind's adjustment: fewer sets, more ways, the line kept") {
  // valgrind's own examples: 12 MiB 16-way (12288 sets), an AMD 5 MiB 48-way
  // (1706.67 sets).
  CHECK(callgrind_compatible_level({12u << 20, 16, 64}).text() == "12582912 B, 24-way, 64 B lines");
  CHECK(callgrind_compatible_level({5u << 20, 48, 64}).text() == "5242880 B, 80-way, 64 B lines");
  // 6 MiB 12-way: 8192 sets already; 6000000 B 16-way: 5859 sets -> 4096, 23 ways.
  CHECK(callgrind_compatible_level({6u << 20, 12, 64}).text() == "6291456 B, 12-way, 64 B lines");
  CHECK(callgrind_compatible_level({6000000, 16, 64}).text() == "6029312 B, 23-way, 64 B lines");
  // A size that is not whole sets is cut to them.
  CHECK(callgrind_compatible_level({32768 + 100, 8, 64}).text() == "32768 B, 8-way, 64 B lines");
}

TEST_CASE("without sysfs the generic model, with a note") {
  test::TempDir root;
  const SimulatedCacheModel host = host_cache_model(root / "absent");
  const CacheModel generic = generic_cache_model();
  REQUIRE(host.model.i1.has_value());
  CHECK(host.model.i1->text() == "32768 B, 8-way, 64 B lines");
  CHECK(host.model.d1->text() == "32768 B, 8-way, 64 B lines");
  CHECK(host.model.ll->text() == "8388608 B, 16-way, 64 B lines");
  CHECK(host.model.ll->text() == generic.ll->text());
  REQUIRE(host.notes.size() == 1);
  CHECK(host.notes[0] ==
        "sysfs (" + (root / "absent/devices/system/cpu/cpu0/cache").string() +
            ") describes no cache of this CPU; the simulation uses a generic model: I1 32768 B, "
            "8-way, 64 B lines; D1 32768 B, 8-way, 64 B lines; LL 8388608 B, 16-way, 64 B lines");

  // Folders of unreadable caches are as good as none.
  write_sysfs(root.path(), {{"1", "Data", "many", "8", "64"}});
  CHECK(host_cache_model(root.path()).notes.size() == 1);
}

TEST_CASE("a level sysfs does not describe is the generic one, with a note naming it") {
  test::TempDir root;
  write_sysfs(root.path(),
              {{"1", "Data", "32K", "8", "64"}, {"1", "Instruction", "32K", "8", "64"}});
  const SimulatedCacheModel host = host_cache_model(root.path());
  CHECK(host.model.ll->text() == "8388608 B, 16-way, 64 B lines");
  REQUIRE(host.notes.size() == 1);
  CHECK(host.notes[0].find("describes no LL cache") != std::string::npos);
}

TEST_CASE("0 ways in sysfs is a fully associative cache") {
  test::TempDir root;
  write_sysfs(root.path(), {{"1", "Data", "4K", "0", "64"},
                            {"1", "Instruction", "32K", "8", "64"},
                            {"2", "Unified", "1M", "16", "64"}});
  const SimulatedCacheModel host = host_cache_model(root.path());
  CHECK(host.model.d1->text() == "4096 B, 64-way, 64 B lines");
  CHECK(host.model.ll->text() == "1048576 B, 16-way, 64 B lines");
  CHECK(host.notes.empty());
}

TEST_CASE("this machine's model is one callgrind takes and the core can complete") {
  const SimulatedCacheModel host = host_cache_model();
  CHECK(has_power_of_two_sets(host.model.i1));
  CHECK(has_power_of_two_sets(host.model.d1));
  CHECK(has_power_of_two_sets(host.model.ll));
  CacheModel asked;
  add_cache_model_spec(asked, "LL=4M");
  const CacheModel complete = complete_cache_model(asked, host.model);
  CHECK(complete.ll->size_bytes == 4u << 20);
  CHECK(callgrind_cache_arguments(complete).size() == 3);
}

TEST_CASE("the arguments of an incomplete model are refused") {
  CacheModel model = generic_cache_model();
  CHECK(callgrind_cache_arguments(model) ==
        std::vector<std::string>{"--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"});
  model.ll.reset();
  CHECK_THROWS_AS(callgrind_cache_arguments(model), ReplayError);
}

void write_program(const std::filesystem::path& file, const std::string& script) {
  std::ofstream(file) << script;
  ::chmod(file.c_str(), 0755);
}

TEST_CASE("valgrind is looked for on the search path and must run") {
  test::TempDir dir;
  const std::string not_installed =
      "callgrind (Debian package valgrind) is not installed; install it (apt install valgrind) "
      "or use --metrics-backend perf";
  CHECK_THROWS_WITH_AS(find_valgrind(""), not_installed.c_str(), UsageError);
  CHECK_THROWS_WITH_AS(find_valgrind((dir / "none").string() + "::" + dir.path().string()),
                       not_installed.c_str(), UsageError);

  // Stand-ins, so that no simulation runs here.
  std::filesystem::create_directories(dir / "good");
  write_program(dir / "good/valgrind", "#!/bin/sh\necho valgrind-3.19.0\n");
  const FoundValgrind found = find_valgrind(dir.path().string() + ":" + (dir / "good").string());
  CHECK(found.program == dir / "good/valgrind");
  CHECK(found.version == "valgrind-3.19.0");

  std::filesystem::create_directories(dir / "broken");
  write_program(dir / "broken/valgrind", "#!/bin/sh\nexit 1\n");
  CHECK_THROWS_WITH_AS(find_valgrind((dir / "broken").string() + ":" + (dir / "good").string()),
                       ("valgrind at " + (dir / "broken/valgrind").string() +
                        " does not run ('valgrind --version' fails); reinstall it (apt install "
                        "--reinstall valgrind) or use --metrics-backend perf")
                           .c_str(),
                       UsageError);
  // Not executable: not found.
  std::filesystem::create_directories(dir / "plain");
  std::ofstream(dir / "plain/valgrind") << "text\n";
  CHECK_THROWS_WITH_AS(find_valgrind((dir / "plain").string()), not_installed.c_str(), UsageError);
}

}  // namespace
}  // namespace msprof::replay
