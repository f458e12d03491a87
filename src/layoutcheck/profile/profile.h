// `layoutcheck profile`: the method of the Pangu-Weather article made a tool. A PyTorch profile
// is read (the operator table key_averages().table() prints, with or without
// group_by_input_shape, or a Kineto chrome trace), and the candidates for specialisation ranked by
// what they cost the device in total (calls x average, per shape), not by the top line alone:
// each with its calls, its shape, its estimated bytes and, for memory-bound operators, the share of
// the copy bandwidth it reaches; copies, allocations and synchronisations are flagged apart, since
// they cost the end-to-end time more than any kernel's speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/json/json.h"

namespace layoutcheck {

enum class OperatorKind { compute, memory_bound, copy, allocation, synchronisation, region };

struct ProfiledOperator {
  std::string name;          // "aten::native_layer_norm"
  std::string input_shapes;  // "[[1, 131040, 192], [], [], []]", or empty
  std::int64_t calls = 0;
  double device_us = 0;  // self device time, all calls
  double cpu_us = 0;     // CPU time, all calls, as Profile::cpu_column says (0: none given)
  std::vector<std::vector<std::int64_t>> shapes;  // input_shapes parsed
  OperatorKind kind = OperatorKind::compute;
  std::optional<double> bytes;  // estimated bytes per call, memory-bound operators
};

// Operators a profile may list (rows of a table, names x input dims of a trace): far past any
// model's, and what bounds a hostile profile's memory (a 64 MiB table of 20-byte rows would be
// 3 million operators, 800 MB).
inline constexpr std::size_t kMaxProfiledOperators = std::size_t{1} << 18;

// The longest time a profile may give (an event's duration, a row's device time, a total): a day,
// far past a profile of a few steps. Longer is not a time but a corrupt number, which would rank
// first and turn every share into 0 %; below it no sum of a capped profile can overflow.
inline constexpr double kMaxProfiledMicroseconds = 86400e6;

// Notes on rows a profile holds that cannot all be true, kept in the report; past this many,
// only their count.
inline constexpr std::size_t kMaxProfileNotes = 20;

struct Profile {
  std::string source;  // "operator table", "chrome trace"
  // What cpu_us is: "CPU total" (children included: the table's column, or a trace's event
  // durations), else "Self CPU" where a table has only that; "" where it has neither.
  std::string cpu_column = "CPU total";
  std::vector<ProfiledOperator> operators;
  double device_total_us = 0;
  // What the input says that does not hold together (a table's average below its self time per
  // call): "line 12: ...". The ranking stands on the self device time; these say what to check.
  std::vector<std::string> notes;
  std::size_t notes_left_out = 0;
};

// The text key_averages().table() prints; rows of one name and input shapes (a table grouped by
// stack) are added into one operator. @post throws InputError (rule "profile") with the line
// (and the column's name) of what cannot be read: no table, a missing Name, calls or self device
// column, a number that is not one, more than kMaxProfiledOperators rows.
Profile parse_operator_table(std::string_view text, const std::string& file);

// A Kineto chrome trace (torch.profiler export_chrome_trace): device kernels attributed to the CPU
// operator that launched them (args "External id"), synchronisation and allocation calls counted.
// @post throws InputError naming the line and column of malformed JSON, or the line of an event
//       of the wrong shape (not an object, no phase; a complete event without a name or
//       category; a member of the wrong type), or what is missing, or more than
//       kMaxProfiledOperators operators.
Profile parse_chrome_trace(std::string_view text, const std::string& file);

// Either, told apart by the first character.
Profile parse_profile(std::string_view text, const std::string& file);

struct ProfileOptions {
  double copy_bandwidth_gbps = 0;  // 0: the % column is not computed (and says so)
  int element_bytes = 2;           // fp16, when a table gives shapes but no dtypes
  std::size_t top = 20;  // candidates listed, in Markdown and JSON (JSON counts them all too)
};

std::string profile_markdown(const Profile& profile, const ProfileOptions& options);
Json profile_json(const Profile& profile, const ProfileOptions& options);

}  // namespace layoutcheck
