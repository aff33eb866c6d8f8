#include "core/file_lock.h"

#include <gtest/gtest.h>

#include <cstdio>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "perfgate/error.h"
#include "store/store_fixture.h"

namespace perfgate {
namespace {

using StoreFileLock = testing::StoreTest;
using namespace std::chrono_literals;

TEST_F(StoreFileLock, SecondHolderWaitsForTheFirst) {
  const auto file = dir_ / "m" / ".lock";
  std::atomic<int> inside{0};
  std::atomic<int> most_inside{0};
  auto hold = [&] {
    FileLock lock(file, 5000ms);
    const int now = ++inside;
    if (now > most_inside) most_inside = now;
    std::this_thread::sleep_for(150ms);
    --inside;
  };
  std::thread a(hold), b(hold), c(hold);
  a.join();
  b.join();
  c.join();
  EXPECT_EQ(most_inside.load(), 1);
}

TEST_F(StoreFileLock, GivesUpAfterTheTimeoutNamingTheLock) {
  const auto file = dir_ / "m" / ".lock";
  FileLock held(file, 1000ms);
  std::string message;
  std::thread other([&] {
    try {
      FileLock second(file, 100ms);
    } catch (const Error& e) {
      message = e.what();
    }
  });
  other.join();
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  EXPECT_NE(message.find("pid"), std::string::npos) << message;
}

// A lock held by something that wrote no id (flock(1), or a holder whose id was cleared): the
// message names what holds such a lock and no pid of an earlier holder long gone.
TEST_F(StoreFileLock, NamesTheHolderNounAndNoPidThatIsGone) {
  const auto file = dir_ / "h.jsonl.lock";
  { FileLock earlier(file, 100ms); }  // wrote its pid, then released
  std::ofstream(file) << "pid 2147483646\n";  // an id no process has
  FileLock held(file, 1000ms, "reader or writer of this history");
  std::ofstream(file) << "pid 2147483646\n";
  std::string message;
  std::thread other([&] {
    try {
      FileLock second(file, 50ms, "reader or writer of this history");
    } catch (const Error& e) {
      message = e.what();
    }
  });
  other.join();
  EXPECT_NE(message.find("locked by another reader or writer of this history for longer than"), std::string::npos) << message;
  EXPECT_EQ(message.find("pid"), std::string::npos) << message;
}

// Released, no file names the holder: the file is gone, and one a waiter had already opened is
// emptied first, so no waiter reads the id of a process that has let go.
TEST_F(StoreFileLock, ReleasingClearsTheHoldersId) {
  const auto file = dir_ / ".lock";
  std::FILE* opened_before = nullptr;
  {
    FileLock first(file, 100ms);
    opened_before = std::fopen(file.c_str(), "r");
    ASSERT_NE(opened_before, nullptr);
  }
  EXPECT_FALSE(std::filesystem::exists(file));
  char text[32] = {};
  EXPECT_EQ(std::fread(text, 1, sizeof text - 1, opened_before), 0u) << text;
  std::fclose(opened_before);
}

TEST_F(StoreFileLock, IsFreeAgainWhenReleased) {
  const auto file = dir_ / ".lock";
  { FileLock first(file, 100ms); }
  EXPECT_NO_THROW(FileLock(file, 100ms));
}

// No lock file is left in the folder (a consumer's baselines/, which its CI commits), and the
// holders that waited while it was removed still take turns, one at a time.
TEST_F(StoreFileLock, LeavesNoFileAndStillExcludes) {
  const auto file = dir_ / "m" / ".lock";
  std::atomic<int> inside{0};
  std::atomic<int> most_inside{0};
  auto hold = [&] {
    for (int i = 0; i < 5; ++i) {
      FileLock lock(file, 20000ms);
      const int now = ++inside;
      if (now > most_inside) most_inside = now;
      std::this_thread::sleep_for(2ms);
      --inside;
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(hold);
  for (auto& t : threads) t.join();
  EXPECT_EQ(most_inside.load(), 1);
  EXPECT_FALSE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace perfgate
