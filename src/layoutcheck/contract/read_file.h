// The whole of a file as text, bounded: contracts, manifests, kernel sources and recorded reports
// are read through here, each with its own size cap, so that no input can take unbounded memory
// (/dev/zero) or time (a FIFO nobody writes to: open never blocks, a read that waits longer than
// the timeout is an error). Pipes and process substitution (/dev/fd/N) are read as streams.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {

inline constexpr int kReadTimeoutSeconds = 5;  // a stream with nothing to read for this long

// Each input's cap: far past any real one, far below what would hurt.
inline constexpr std::size_t kMaxContractBytes = 16 << 20;
inline constexpr std::size_t kMaxManifestBytes = 1 << 20;      // a manifest is a few lines
inline constexpr std::size_t kMaxKernelSourceBytes = 4 << 20;  // one port's source
inline constexpr std::size_t kMaxBenchReportBytes = 64 << 20;  // every sample: a few hundred KiB
inline constexpr std::size_t kMaxProfileBytes = 64 << 20;      // a trace of a few model steps

// `what` names the file in messages ("the manifest", "a contract").
// @post throws InputError (rule "io", at path) when the file is missing, unreadable, a directory,
//       larger than max_bytes, or a stream that stays silent for kReadTimeoutSeconds.
std::string read_file_capped(const std::string& path, std::size_t max_bytes,
                             const std::string& what);

// The same with a 256 MiB cap, for tests and tools: nullopt where read_file_capped throws.
std::optional<std::string> read_text_file(const std::string& path);

}  // namespace layoutcheck
