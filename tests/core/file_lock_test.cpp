#include "core/file_lock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

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

TEST_F(StoreFileLock, ReleasingClearsTheHoldersId) {
  const auto file = dir_ / ".lock";
  { FileLock first(file, 100ms); }
  EXPECT_EQ(std::filesystem::file_size(file), 0u);
}

TEST_F(StoreFileLock, IsFreeAgainWhenReleased) {
  const auto file = dir_ / ".lock";
  { FileLock first(file, 100ms); }
  EXPECT_NO_THROW(FileLock(file, 100ms));
}

}  // namespace
}  // namespace perfgate
