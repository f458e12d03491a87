#include "layoutcheck/contract/read_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace layoutcheck {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message,
                       const std::string& fix = "") {
  throw InputError(Diagnostic{SourceLocation{path}, Severity::error, "io", message, fix});
}

std::string size_text(std::size_t bytes) {
  return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB"
                                         : std::to_string(bytes >> 10) + " KiB";
}

// Closes the descriptor on every path out.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_file_capped(const std::string& path, std::size_t max_bytes,
                             const std::string& what) {
  Descriptor file;
  // O_NONBLOCK: opening a FIFO without a writer would otherwise wait for one forever.
  file.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (file.fd < 0)
    fail(path, "cannot read " + what + " " + path + ": " + std::strerror(errno),
         "check the path and its permissions");
  struct stat status {};
  if (::fstat(file.fd, &status) != 0)
    fail(path, "cannot read " + what + " " + path + ": " + std::strerror(errno));
  if (S_ISDIR(status.st_mode)) fail(path, path + " is a directory, not " + what);
  const bool regular = S_ISREG(status.st_mode);
  if (regular && static_cast<std::size_t>(status.st_size) > max_bytes)
    fail(path, path + " is larger than " + size_text(max_bytes) + "; it is not " + what);

  std::string text;
  std::array<char, 65536> chunk{};
  while (true) {
    if (!regular) {  // a stream: wait for data, but not forever
      pollfd ready{file.fd, POLLIN, 0};
      const int polled = ::poll(&ready, 1, kReadTimeoutSeconds * 1000);
      if (polled == 0)
        fail(path, "nothing to read from " + path + " for " + std::to_string(kReadTimeoutSeconds) +
                       " s (a FIFO or pipe nobody writes)");
      if (polled < 0 && errno != EINTR) fail(path, "reading " + path + ": " + std::strerror(errno));
    }
    const ssize_t got = ::read(file.fd, chunk.data(), chunk.size());
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      fail(path, "reading " + path + " failed part way: " + std::strerror(errno));
    }
    text.append(chunk.data(), static_cast<std::size_t>(got));
    if (text.size() > max_bytes)
      fail(path, path + " is larger than " + size_text(max_bytes) + "; it is not " + what);
  }
  return text;
}

std::optional<std::string> read_text_file(const std::string& path) {
  try {
    return read_file_capped(path, std::size_t{256} << 20, "a text file");
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace layoutcheck
