// `layoutcheck profile` on the seed article's table and on a table and a trace of the same model
// grouped by input shape: the ranking by total device time, the shapes kept apart, the bytes and
// the share of the copy bandwidth of the memory-bound operators, the copies, allocations and
// synchronisations flagged; malformed input an error naming its line.
#include "layoutcheck/profile/profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/profile/operator_kind.h"

namespace layoutcheck {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string fixture(const std::string& name) {
  return *read_text_file(std::string(LAYOUTCHECK_TEST_DATA) + "/profile/fixtures/" + name);
}

const ProfiledOperator& find(const Profile& profile, const std::string& name,
                             const std::string& shapes = "") {
  for (const ProfiledOperator& op : profile.operators)
    if (op.name == name && (shapes.empty() || op.input_shapes == shapes)) return op;
  throw std::logic_error("no operator " + name);
}

TEST(ProfileTable, TheSeedTableRanksByTotalDeviceTimeAndFlagsTheCosts) {
  const Profile profile = parse_profile(fixture("pangu_bw1000_operator_table.txt"), "seed.txt");
  EXPECT_EQ(profile.source, "operator table");
  EXPECT_EQ(find(profile, "aten::addmm").calls, 112);
  EXPECT_DOUBLE_EQ(find(profile, "aten::addmm").device_us, 35244);
  EXPECT_EQ(find(profile, "aten::native_layer_norm").kind, OperatorKind::memory_bound);
  EXPECT_EQ(find(profile, "aten::copy_").kind, OperatorKind::copy);
  EXPECT_EQ(find(profile, "aten::empty").kind, OperatorKind::allocation);
  EXPECT_EQ(find(profile, "输出传输阶段").kind, OperatorKind::region);
  EXPECT_EQ(find(profile, "aten::gelu_").kind, OperatorKind::memory_bound);
  // The article's gelu_ row: 6.634 ms over 164 calls is 40.451 µs a call, above its 14.600 µs
  // average, which counts the children too and so cannot be lower. Said, and ranked by the total.
  ASSERT_EQ(profile.notes.size(), 1u);
  EXPECT_THAT(profile.notes[0],
              HasSubstr("line 17: aten::gelu_: 'CUDA time avg' is 14.600us, below its self time "
                        "per call (40.451 µs)"));
  const Json json = profile_json(profile, {});
  const Json& candidates = json["candidates"];
  EXPECT_EQ(candidates[0]["name"].as_string(), "aten::addmm");
  EXPECT_EQ(candidates[2]["name"].as_string(), "aten::native_layer_norm");
  EXPECT_EQ(candidates[7]["name"].as_string(), "aten::index_select");
  const Json& costs = json["copies_allocations_synchronisations"];
  EXPECT_EQ(costs[0]["name"].as_string(), "aten::empty");
  EXPECT_EQ(costs[0]["calls"].as_int(), 277);
  EXPECT_EQ(costs[1]["calls"].as_int(), 173);
  const std::string markdown = profile_markdown(profile, {});
  EXPECT_THAT(markdown,
              HasSubstr("| 3 | aten::native_layer_norm | — | 34 | 14.521 ms | 427.088 µs"));
  EXPECT_THAT(markdown, HasSubstr("needs --copy-bandwidth"));
  EXPECT_THAT(markdown, HasSubstr("| 7 | aten::gelu_ | — | 164 | 6.634 ms | 40.451 µs"));
  EXPECT_THAT(markdown, HasSubstr("## What in the profile does not hold together\n\n- line 17: "));
  EXPECT_EQ(json["notes"].size(), 1u);
}

TEST(ProfileTable, ShapesStayApartAndMemoryBoundOperatorsGetTheirBandwidth) {
  const Profile profile = parse_profile(fixture("pangu_by_input_shape.txt"), "shapes.txt");
  const ProfiledOperator& level0 =
      find(profile, "aten::native_layer_norm", "[[1, 131040, 192], [], [], [], []]");
  const ProfiledOperator& level1 =
      find(profile, "aten::native_layer_norm", "[[1, 33120, 384], [], [], [], []]");
  EXPECT_EQ(level0.calls, 17);
  EXPECT_EQ(level1.calls, 17);
  EXPECT_DOUBLE_EQ(level0.cpu_us, 1000);
  ProfileOptions options;
  options.copy_bandwidth_gbps = 4000;
  const Json json = profile_json(profile, options);
  const Json& norm = json["candidates"][1];
  EXPECT_EQ(norm["name"].as_string(), "aten::native_layer_norm");
  EXPECT_DOUBLE_EQ(norm["bytes_per_call"].as_double(), 2.0 * 131040 * 192 * 2);  // read + write
  EXPECT_NEAR(norm["copy_bandwidth_pct"].as_double(),
              2.0 * 131040 * 192 * 2 / 559.529e-6 / 4000e9 * 100, 1e-3);
  // index_select to 138240 rows: the selected rows written and read, and the int64 index.
  const Json& gather = json["candidates"][3];
  EXPECT_EQ(gather["name"].as_string(), "aten::index_select");
  EXPECT_DOUBLE_EQ(gather["bytes_per_call"].as_double(), 2.0 * 138240 * 192 * 2 + 138240 * 8);
  EXPECT_TRUE(json["candidates"][0]["bytes_per_call"].is_null());  // addmm: compute
  EXPECT_EQ(norm.find("exceeds_copy_bandwidth"), nullptr);

  // A copy bandwidth so low that the estimate passes it: flagged, not shown as a fast kernel.
  options.copy_bandwidth_gbps = 100;
  EXPECT_TRUE(profile_json(profile, options)["candidates"][1]["exceeds_copy_bandwidth"].as_bool());
  EXPECT_NE(profile_markdown(profile, options).find("(over the copy: bytes over-estimated"),
            std::string::npos);
}

// A table grouped by stack lists an operator and shape once per call site: one operator, as in
// the trace. The CPU time read is "CPU total" (children included) where the table has it.
TEST(ProfileTable, RowsOfOneOperatorAndShapeAreAddedIntoOne) {
  const std::string rule = "---------------  ---------  ---------  ---------  ----------  "
                           "-------------\n";
  const Profile profile = parse_profile(
      rule + "           Name   Self CPU  CPU total  Self CUDA  # of Calls   Input Shapes\n" +
          rule +
          "    aten::copy_    100.0us    180.0us     30.0us           2         [[8]]\n"
          "      aten::add     10.0us     10.0us     50.0us           1         [[8]]\n"
          "    aten::copy_     50.0us     60.0us     20.0us           3         [[8]]\n"
          "    aten::copy_     10.0us     10.0us      5.0us           1         [[4]]\n" +
          rule,
      "stack.txt");
  EXPECT_EQ(profile.cpu_column, "CPU total");
  ASSERT_EQ(profile.operators.size(), 3u);
  const ProfiledOperator& copy = find(profile, "aten::copy_", "[[8]]");
  EXPECT_EQ(copy.calls, 5);
  EXPECT_DOUBLE_EQ(copy.device_us, 50);
  EXPECT_DOUBLE_EQ(copy.cpu_us, 240);
  EXPECT_DOUBLE_EQ(find(profile, "aten::copy_", "[[4]]").device_us, 5);
  EXPECT_DOUBLE_EQ(profile.device_total_us, 105);
  EXPECT_THAT(profile_markdown(profile, {}), HasSubstr("| aten::copy_ | 5 | 50.000 µs | 240.000 µs"));
  EXPECT_THAT(profile_markdown(profile, {}), HasSubstr("| operator | calls | device total | "
                                                       "CPU total | why it counts |"));
  EXPECT_EQ(parse_profile(fixture("pangu_by_input_shape.txt"), "t.txt").cpu_column, "Self CPU");
  // A name the table cut to its column may stand for several operators: never added together.
  const Profile cut = parse_profile(
      rule + "           Name   Self CPU  CPU total  Self CUDA  # of Calls   Input Shapes\n" +
          rule +
          "   void at::...     10.0us     10.0us     30.0us           2         [[8]]\n"
          "   void at::...     10.0us     10.0us     20.0us           3         [[8]]\n" +
          rule,
      "cut.txt");
  EXPECT_EQ(cut.operators.size(), 2u);
}

TEST(ProfileTrace, KernelsBelongToTheirOperatorsAndWaitsAreFlagged) {
  const Profile profile = parse_profile(fixture("pangu_trace.json"), "trace.json");
  EXPECT_EQ(profile.source, "chrome trace");
  const ProfiledOperator& norm = find(profile, "aten::native_layer_norm");
  EXPECT_EQ(norm.calls, 2);
  EXPECT_DOUBLE_EQ(norm.device_us, 340);
  EXPECT_EQ(norm.input_shapes, "[[1, 131040, 192], [], [], [], []]");
  EXPECT_DOUBLE_EQ(find(profile, "aten::copy_").device_us, 30);
  const ProfiledOperator& wait = find(profile, "cudaDeviceSynchronize");
  EXPECT_EQ(wait.kind, OperatorKind::synchronisation);
  EXPECT_DOUBLE_EQ(wait.cpu_us, 250);
  EXPECT_DOUBLE_EQ(find(profile, "orphan_kernel").device_us, 1);
  EXPECT_DOUBLE_EQ(profile.device_total_us, 170.5 + 169.5 + 125 + 30 + 1);
}

TEST(ProfileTrace, AKernelListedBeforeItsOperatorIsStillItsOperators) {
  const Profile profile = parse_profile(R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "ln_kernel", "dur": 7, "args": {"External id": 4}},
    {"ph": "X", "cat": "kernel", "name": "lost_kernel", "dur": 2, "args": {"External id": 9}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::layer_norm", "dur": 30,
     "args": {"External id": 4, "Input Dims": [[1, 8, 192]]}}
  ]})", "trace.json");
  const ProfiledOperator& norm = find(profile, "aten::layer_norm");
  EXPECT_EQ(norm.calls, 1);
  EXPECT_DOUBLE_EQ(norm.device_us, 7);
  EXPECT_EQ(norm.input_shapes, "[[1, 8, 192]]");
  const ProfiledOperator& lost = find(profile, "lost_kernel");  // its id names no operator
  EXPECT_EQ(lost.calls, 1);
  EXPECT_DOUBLE_EQ(lost.device_us, 2);
  EXPECT_DOUBLE_EQ(profile.device_total_us, 9);
}

// The trace's category says what a user region is; a kernel no operator launched is device
// work whatever its name.
TEST(ProfileTrace, RegionsAreTheTracesAnnotationsNotNamesWithoutANamespace) {
  const Profile profile = parse_profile(R"({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "dur": 900},
    {"ph": "X", "cat": "user_annotation", "name": "attention::block", "dur": 400},
    {"ph": "X", "cat": "kernel", "name": "indexSelectLargeIndex", "dur": 125},
    {"ph": "X", "cat": "kernel", "name": "k2", "dur": 3}
  ]})", "trace.json");
  EXPECT_EQ(find(profile, "ProfilerStep#3").kind, OperatorKind::region);
  EXPECT_EQ(find(profile, "attention::block").kind, OperatorKind::region);
  EXPECT_EQ(find(profile, "indexSelectLargeIndex").kind, OperatorKind::compute);
  EXPECT_EQ(find(profile, "k2").kind, OperatorKind::compute);
}

std::string error_of(const std::string& text) {
  try {
    (void)parse_profile(text, "p.txt");
  } catch (const InputError& error) {
    return error.diagnostics().front().str();
  }
  return "";
}

TEST(ProfileErrors, MalformedInputNamesItsLine) {
  EXPECT_THAT(error_of("nothing here\n"), HasSubstr("no operator table here"));
  const std::string header =
      "----  ----------  ----------\nName   Self CUDA  # of Calls\n----  ----------  ----------\n";
  EXPECT_EQ(error_of(header + "a::b     1.0ms           3\n----  ----------  ----------\n"), "");
  EXPECT_THAT(error_of(header + "a::b     1.0ms         abc\n----  ----------  ----------\n"),
              HasSubstr("p.txt:4:1: error[profile]: '# of Calls' of a::b is 'abc', not a count"));
  EXPECT_THAT(error_of(header + "a::b     fast            3\n----  ----------  ----------\n"),
              HasSubstr("p.txt:4:1: error[profile]: 'Self CUDA' of a::b is 'fast', not a time"));
  EXPECT_THAT(error_of(header + "a::b     1.0ms           3\n"),
              HasSubstr("does not end with a dashed line"));
  EXPECT_THAT(error_of("----  ----------\nName    Self CPU\n----  ----------\n"),
              HasSubstr("p.txt:2:1: error[profile]: the table's header has no '# of Calls'"));
  EXPECT_THAT(error_of("{\"traceEvents\": [\n  {\"ph\": \"X\",,}\n]}"),
              HasSubstr("p.txt:2:14: error[profile]: malformed JSON: expected a string key"));
  EXPECT_THAT(error_of("{\"events\": []}"), HasSubstr("no \"traceEvents\" array"));
  std::string dashes;  // a rule of 300 columns
  for (int i = 0; i < 300; ++i) dashes += "-- ";
  EXPECT_THAT(error_of("\n" + dashes + "\nName\n" + dashes + "\n"),
              HasSubstr("p.txt:2:1: error[profile]: the dashed line above the header has more "
                        "than 256 runs of dashes"));
}

// Times that cannot be: device time spent by no call, a negative or non-numeric duration.
TEST(ProfileErrors, ImpossibleTimesAreErrorsNotFigures) {
  const std::string header =
      "----  ----------  ----------\nName   Self CUDA  # of Calls\n----  ----------  ----------\n";
  EXPECT_THAT(error_of(header + "a::b    35.2ms           0\n----  ----------  ----------\n"),
              HasSubstr("p.txt:4:1: error[profile]: '# of Calls' of a::b is 0 but its device "
                        "time is '35.2ms'"));
  EXPECT_EQ(error_of(header + "a::b     0.0us           0\nc::d     1.0us           1\n"
                              "----  ----------  ----------\n"),
            "");  // no calls and no time: a row, not a contradiction
  const auto trace = [](const std::string& dur) {
    return "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
           "\"dur\": " + dur + "}]}";
  };
  EXPECT_EQ(error_of(trace("12.5")), "");
  EXPECT_EQ(error_of("\xEF\xBB\xBF" + trace("12.5")), "");  // a byte-order mark first
  EXPECT_THAT(error_of(trace("-3")), HasSubstr("traceEvents[0] (k): \"dur\" is not a duration"));
  EXPECT_THAT(error_of(trace("\"3us\"")),
              HasSubstr("traceEvents[0] (k): \"dur\" is not a duration"));
}

// An event's error names its line, and a member of the wrong type is an error, never read as
// absent (an operator without shapes, a kernel launched by no operator).
TEST(ProfileErrors, AnEventOfTheWrongShapeNamesItsLine) {
  const std::string kernel =
      "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"dur\": 2, \"args\": "
      "{\"External id\": 7}}";
  const auto trace = [&](const std::string& op_args) {
    return "{\"traceEvents\": [\n" + kernel + ",\n  {\"ph\": \"X\", \"cat\": \"cpu_op\", "
           "\"name\": \"aten::add\", \"dur\": 3, \"args\": " + op_args + "}\n]}";
  };
  EXPECT_EQ(error_of(trace("{\"External id\": 7, \"Input Dims\": [[4, 8], []]}")), "");
  EXPECT_THAT(error_of(trace("{\"External id\": 7, \"Input Dims\": \"notalist\"}")),
              HasSubstr("p.txt:3:1: error[profile]: traceEvents[1] (aten::add): args \"Input "
                        "Dims\" is not a list of shapes"));
  EXPECT_THAT(error_of(trace("{\"External id\": \"x\"}")),
              HasSubstr("p.txt:3:1: error[profile]: traceEvents[1] (aten::add): args \"External "
                        "id\" is not an integer"));
  EXPECT_THAT(error_of("{\"traceEvents\": [\n\n" + kernel + ",\n  {\"ph\": \"X\", \"cat\": "
                       "\"kernel\", \"name\": \"k2\", \"dur\": -1}]}"),
              HasSubstr("p.txt:4:1: error[profile]: traceEvents[1] (k2): \"dur\" is not a "
                        "duration"));
  for (const std::string& array : {"[" + kernel + "]", std::string("[1, 2, 3]"),
                                    std::string("[\"a\"]"), std::string(" [ ]")})
    EXPECT_THAT(error_of(array), HasSubstr("p.txt: error[profile]: a JSON array, not a chrome "
                                           "trace as Kineto writes it"))
        << array;
  // A log line above a table is not an array.
  EXPECT_THAT(error_of("[W kineto_shim.cpp:40] Warning\n"), HasSubstr("no operator table here"));
  EXPECT_THAT(error_of(std::string("\x1f\x8b\x08\x00", 4) + "gz"),
              HasSubstr("p.txt: error[profile]: a gzip-compressed file (a trace saved as "
                        ".json.gz?) (fix: decompress it first: gunzip -c FILE"));
  EXPECT_THAT(error_of(trace("[1]")),
              HasSubstr("p.txt:3:1: error[profile]: traceEvents[1] (aten::add): \"args\" is not "
                        "an object"));
  EXPECT_THAT(error_of(trace("{\"External id\": 7, \"Input Dims\": [[2, -3]]}")),
              HasSubstr("traceEvents[1] (aten::add): args \"Input Dims\" holds a negative size, -3"));
}

// An event is never skipped for its shape: a complete event without a name or category, or an
// item that is not an event, would take its time out of the ranking without a word.
TEST(ProfileErrors, AnEventWithoutWhatItNeedsIsAnErrorNotSkipped) {
  const auto trace = [](const std::string& event) {
    return "{\"traceEvents\": [\n  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
           "\"dur\": 5},\n  " + event + "\n]}";
  };
  // A complete event without its duration would count as no time at all.
  EXPECT_THAT(error_of(trace("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\"}")),
              HasSubstr("p.txt:3:1: error[profile]: traceEvents[1] (k2): a complete event "
                        "(\"ph\": \"X\") without a \"dur\""));
  EXPECT_THAT(error_of(trace("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\"}")),
              HasSubstr("traceEvents[1] (a): a complete event (\"ph\": \"X\") without a \"dur\""));
  EXPECT_EQ(error_of(trace("{\"ph\": \"M\", \"name\": \"process_name\"}")), "");
  EXPECT_EQ(error_of(trace("{\"ph\": \"i\", \"s\": \"g\"}")), "");  // phases not read
  EXPECT_THAT(error_of(trace("{\"ph\": \"X\", \"cat\": \"kernel\", \"dur\": 500}")),
              HasSubstr("p.txt:3:1: error[profile]: traceEvents[1] (?): a complete event "
                        "(\"ph\": \"X\") without a \"name\" string"));
  EXPECT_THAT(error_of(trace("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": 5, \"dur\": 500}")),
              HasSubstr("without a \"name\" string"));
  EXPECT_THAT(error_of(trace("{\"ph\": \"X\", \"name\": \"k2\", \"dur\": 500}")),
              HasSubstr("traceEvents[1] (k2): a complete event (\"ph\": \"X\") without a \"cat\" "
                        "string"));
  EXPECT_THAT(error_of(trace("{\"cat\": \"kernel\", \"name\": \"k\", \"dur\": 5}")),
              HasSubstr("traceEvents[1] (k): no \"ph\" string (the event's phase)"));
  EXPECT_THAT(error_of(trace("7")), HasSubstr("p.txt:3:1: error[profile]: traceEvents[1] (?): "
                                              "not an object"));
}

// A profile with nothing to rank is an error, never an empty ranking that reads as "no copies".
TEST(ProfileErrors, NothingToRankIsAnError) {
  const std::string rule = "----  ----------  ----------\n";
  EXPECT_THAT(error_of(rule + "Name   Self CUDA  # of Calls\n" + rule + rule),
              HasSubstr("p.txt:4:1: error[profile]: the table has no rows"));
  const std::string no_device = "no device events";
  EXPECT_THAT(error_of("{\"traceEvents\": []}"), HasSubstr(no_device));
  EXPECT_THAT(error_of("{\"traceEvents\": [{\"ph\": \"i\", \"name\": \"k\"}]}"),
              HasSubstr(no_device));  // an instant event: not a complete one
  EXPECT_THAT(error_of("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", "
                       "\"name\": \"aten::add\", \"dur\": 5}]}"),
              HasSubstr(no_device));
  // Device events or rows that took no time: nothing to rank either, never an empty ranking.
  EXPECT_THAT(error_of("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
                       "\"dur\": 0}]}"),
              HasSubstr("p.txt: error[profile]: every device event's \"dur\" is 0: nothing can be "
                        "ranked"));
  EXPECT_THAT(error_of(rule + "Name   Self CUDA  # of Calls\n" + rule +
                       "a::b     0.000us        112\nc::d     0.000us          3\n" + rule),
              HasSubstr("p.txt:6:1: error[profile]: no row took device time ('Self CUDA' is 0 on "
                        "every row): nothing to rank"));
}

// Times past what a double holds, and a totals line of nothing under rows that took time.
TEST(ProfileErrors, TimesMustBeFiniteAndTotalsNotZeroUnderTimedRows) {
  const std::string rule = "----  ----------  ----------\n";
  const std::string header = rule + "Name   Self CUDA  # of Calls\n" + rule;
  const std::string wide = "----  " + std::string(310, '-') + "  ----------\n";
  EXPECT_THAT(error_of(wide + "Name  Self CUDA" + std::string(303, ' ') + "# of Calls\n" + wide +
                       "a::b  " + std::string(305, '9') + "s      1\n" + wide),
              HasSubstr("'Self CUDA' of a::b is '999"));
  // Past a day: a corrupt number, which would rank first and make every other share 0 %.
  EXPECT_THAT(error_of("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
                       "\"dur\": 1}, {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", "
                       "\"dur\": 1e300}]}"),
              HasSubstr("traceEvents[1] (k2): \"dur\" is 1e+300 µs, more than a day"));
  EXPECT_THAT(error_of("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", "
                       "\"dur\": 86400000001}, {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
                       "\"dur\": 1}]}"),
              HasSubstr("traceEvents[0] (a): \"dur\" is 86400000001 µs, more than a day"));
  EXPECT_EQ(error_of("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
                     "\"dur\": 86400000000}]}"),
            "");  // a day exactly
  EXPECT_THAT(error_of(header + "a::b     2.0e9s          1\n" + rule),
              HasSubstr("p.txt:4:1: error[profile]: 'Self CUDA' of a::b is '2.0e9s'"));
  EXPECT_THAT(error_of("----  ----------  ----------  ----------\n"
                       "Name   Self CUDA  # of Calls  CPU total\n"
                       "----  ----------  ----------  ----------\n"
                       "a::b     1.0us             1   86401.0s\n"
                       "----  ----------  ----------  ----------\n"),
              HasSubstr("p.txt:4:1: error[profile]: 'CPU total' of a::b is more than a day"));
  EXPECT_THAT(error_of(header + "a::b  86401.0s           1\n" + rule),
              HasSubstr("p.txt:4:1: error[profile]: 'Self CUDA' of a::b is '86401.0s', more than "
                        "a day"));
  const std::string rows = header + "a::b     1.0us           1\nc::d     1.0us           1\n" + rule;
  EXPECT_EQ(error_of(rows + "Self CUDA time total: 2.000us\n"), "");
  EXPECT_EQ(error_of(rows + "Self CUDA time total: 7.000us\n"), "");  // rows left out
  // Less than the rows: a kernel's time is on its operator's row and on its own.
  EXPECT_EQ(error_of(rows + "Self CUDA time total: 1.000us\n"), "");
  EXPECT_THAT(error_of(rows + "Self CUDA time total: 0.000us\n"),
              HasSubstr("p.txt:7:1: error[profile]: 'Self CUDA time total: 0.000us' is zero under "
                        "rows that took device time"));
  // A row longer than the whole: since PyTorch 2.5 the total leaves out user annotations, whose
  // rows span the device's idle time too. Read, and said (its share is past 100 %).
  const std::string annotated =
      header + "step     1.0ms           1\na::b     1.0us           1\n" + rule;
  EXPECT_TRUE(parse_profile(annotated + "Self CUDA time total: 1.000ms\n", "p.txt").notes.empty());
  const Profile profile = parse_profile(annotated + "Self CUDA time total: 0.500ms\n", "p.txt");
  ASSERT_EQ(profile.notes.size(), 1u);
  EXPECT_THAT(profile.notes[0],
              HasSubstr("line 7: 'Self CUDA time total: 0.500ms' is less than the device time of "
                        "step (1000.000 µs), so its share is past 100 %: a user "
                        "annotation"));
}

// Python pads and truncates every cell to its column: text between the columns is a cell that
// spilled into its neighbour, whose number would be read cut in two. A second table is not
// guessed between.
TEST(ProfileErrors, TextBetweenTheColumnsOrASecondTableIsAnError) {
  const std::string rule = "----------  ----------  ----------\n";
  const std::string header = rule + "      Name   Self CUDA  # of Calls\n" + rule;
  EXPECT_EQ(error_of(header + "aten::mm       1.000ms           3\n" + rule), "");
  EXPECT_THAT(error_of(header + "aten::addmm1234567.2345ms       3\n" + rule),
              HasSubstr("p.txt:4:1: error[profile]: text at character 11 runs across the edge "
                        "of a column this reads"));
  EXPECT_THAT(error_of(header + "aten::mm       1.000ms 12345678901\n" + rule),
              HasSubstr("p.txt:4:1: error[profile]: text at character 24 runs across"));
  EXPECT_THAT(error_of(rule + "      Name   Self CUDA# of Calls\n" + rule),
              HasSubstr("p.txt:2:1: error[profile]: the table's header has no '# of Calls'"));
  EXPECT_THAT(error_of(header + "aten::mm       1.000ms           3\n" + rule + "\n" + header +
                       "aten::mm       1.000ms           3\n" + rule),
              HasSubstr("p.txt:7:1: error[profile]: a second table begins here"));
}

// A row as Python's format pads it: each cell right-aligned to its width and never cut, then two
// spaces, as key_averages().table() prints its header and its rows.
std::string python_row(const std::vector<std::pair<std::string, std::size_t>>& cells) {
  std::string row;
  for (const auto& [text, width] : cells)
    row += std::string(width > text.size() ? width - text.size() : 0, ' ') + text + "  ";
  return row + "\n";
}

// PyTorch's header names are wider than their 12 dashes in places ("CUDA time avg", "Self CUDA
// Mem"): each pushes the names after it along by one, while the rows keep to the dashes.
TEST(ProfileTable, HeaderNamesWiderThanTheirColumnsStillNameThem) {
  const std::vector<std::size_t> widths = {24, 12, 12, 12, 12, 12, 30};
  std::string rule;
  for (const std::size_t width : widths) rule += std::string(width, '-') + "  ";
  rule += "\n";
  const auto row = [&](const std::vector<std::string>& texts) {
    std::vector<std::pair<std::string, std::size_t>> cells;
    for (std::size_t i = 0; i < texts.size(); ++i) cells.emplace_back(texts[i], widths[i]);
    return python_row(cells);
  };
  const std::string header = row({"Name", "Self CUDA", "CUDA total", "CUDA time avg",
                                  "Self CUDA Mem", "# of Calls", "Input Shapes"});
  const Profile profile = parse_profile(
      rule + header + rule +
          row({"aten::native_layer_norm", "9.512ms", "9.600ms", "564.706us", "0 b", "17",
               "[[1, 131040, 192], []]"}) +
          row({"aten::gelu_", "6.634ms", "6.634ms", "14.600us", "0 b", "164", "[[8, 4]]"}) + rule +
          "Self CPU time total: 5.000ms\nSelf CUDA time total: 16.146ms\n",
      "p.txt");
  const ProfiledOperator& norm = find(profile, "aten::native_layer_norm");
  EXPECT_EQ(norm.calls, 17);
  EXPECT_DOUBLE_EQ(norm.device_us, 9512);
  EXPECT_EQ(norm.input_shapes, "[[1, 131040, 192], []]");
  EXPECT_EQ(find(profile, "aten::gelu_").calls, 164);
  // "CUDA time avg" is read as the average column though it overflows its dashes.
  ASSERT_EQ(profile.notes.size(), 1u);
  EXPECT_THAT(profile.notes[0], HasSubstr("line 5: aten::gelu_: 'CUDA time avg' is 14.600us"));
}

// What a saved log holds around a table and is not the table: a warning line that begins with
// "[", a dashed line of the log's own after it, and the rows of a stack's source locations
// (with_stack), blank but for their column.
TEST(ProfileTable, TheLogAroundATableAndItsSourceRowsAreNotRows) {
  const std::string rule = "----------  ----------  ----------  ----------\n";
  const std::string table = rule + "      Name   Self CUDA  # of Calls  Source Location\n" + rule +
                            "  aten::mm     1.000ms           3  model.py(12): fwd\n" +
                            "                                    model.py(40): run\n" + "\n" +
                            " aten::bmm     2.000ms           1  model.py(13): fwd\n" + rule;
  const std::string warning = "[W kineto_shim.cpp:343] Warning: profiler started late\n";
  const Profile profile = parse_profile(warning + table + "--------------------------------\n" +
                                            "epoch 1 done\n",
                                        "p.txt");
  ASSERT_EQ(profile.operators.size(), 2u);
  EXPECT_EQ(find(profile, "aten::mm").calls, 3);
  EXPECT_DOUBLE_EQ(find(profile, "aten::bmm").device_us, 2000);
  EXPECT_THAT(error_of("[{\"ph\": \"X\"}]"), HasSubstr("a JSON array"));
  EXPECT_THAT(error_of(" [\n ]"), HasSubstr("a JSON array"));
}

// Python pads the table by characters: a name with non-ASCII letters is wider in bytes, and its
// row still reads by the columns of the dashes.
TEST(ProfileTable, NamesWithNonAsciiLettersKeepTheirColumns) {
  const std::string rule = "------------  ----------  ----------\n";
  const Profile profile = parse_profile(rule + "Name           Self CUDA  # of Calls\n" + rule +
                                            "ln_окна          3.000ms           5\n" +
                                            "aaaaaaaaaaaé     2.000ms           1\n" + rule,
                                        "p.txt");
  EXPECT_EQ(find(profile, "ln_окна").calls, 5);
  EXPECT_DOUBLE_EQ(find(profile, "ln_окна").device_us, 3000);
  EXPECT_EQ(find(profile, "aaaaaaaaaaaé").calls, 1);
}

// A name from a trace is text of the profiled program: written into the Markdown, it cannot end
// its row or start a section of its own.
TEST(ProfileReport, NamesCannotBreakTheMarkdown) {
  const Profile profile = parse_profile(
      "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k|\\n\\n## Forged\", "
      "\"dur\": 5}]}",
      "p.json");
  const std::string markdown = profile_markdown(profile, ProfileOptions{});
  EXPECT_THAT(markdown, HasSubstr("| k\\|\\\\x0a\\\\x0a## Forged |"));
  EXPECT_THAT(markdown, Not(HasSubstr("\n## Forged")));
  // Bytes that are not UTF-8 (a name cut inside a character) leave the page valid text.
  const Profile cut = parse_profile(
      "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\xff\xfe\", "
      "\"dur\": 5}]}",
      "p.json");
  const std::string cut_markdown = profile_markdown(cut, ProfileOptions{});
  EXPECT_THAT(cut_markdown, HasSubstr("| k\xef\xbf\xbd\xef\xbf\xbd |"));
  EXPECT_EQ(cut_markdown.find('\xff'), std::string::npos);
}

// Shapes whose element count is past 64 bits: an estimate in double, never a wrapped count.
TEST(ProfileTable, HugeShapesEstimateHugeBytes) {
  const std::optional<double> bytes =
      estimated_bytes("aten::gelu", {{4294967296, 4294967296}}, 2);
  ASSERT_TRUE(bytes);
  EXPECT_DOUBLE_EQ(*bytes, 2.0 * 4294967296.0 * 4294967296.0 * 2);
  // Past what a double holds: no estimate, never an infinite one.
  EXPECT_FALSE(estimated_bytes("aten::gelu", {std::vector<std::int64_t>(22, 999999999999999)}, 2));
}

}  // namespace
}  // namespace layoutcheck
