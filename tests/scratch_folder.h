// A folder of its own for a test's files, under the system's temporary directory: empty when the
// test starts (a crashed run's folder under a reused process id is cleared), removed with everything
// in it when the test ends. Named by the process so parallel test runs never share one; two
// alive at once in one process need prefixes of their own.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace layoutcheck::testing {

class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& prefix)
      : path_(std::filesystem::temp_directory_path() /
              (prefix + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  ~ScratchFolder() {
    std::error_code ignored;  // a destructor must not throw
    std::filesystem::remove_all(path_, ignored);
  }

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

  // Writes `text` to the named file in the folder; returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file) << text;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace layoutcheck::testing
