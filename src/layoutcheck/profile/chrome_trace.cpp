// A Kineto chrome trace (torch.profiler's export_chrome_trace): complete events ("ph": "X") of the
// CPU operators ("cat": "cpu_op"), user regions ("user_annotation"), the device kernels, copies
// and sets ("kernel", "gpu_memcpy", "gpu_memset") and the runtime calls ("cuda_runtime",
// "cuda_driver"). A kernel's time belongs to the operator whose "External id" it carries;
// operators are grouped by name and input dims. Events of any other phase or category (Python
// frames, flows, GPU annotations) are not read, but every event must have its phase, and a
// complete one its name and category.
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/profile/operator_kind.h"
#include "layoutcheck/profile/profile.h"

namespace layoutcheck {
namespace {

[[noreturn]] void trace_error(const std::string& file, std::string message, std::string fix = "",
                              int line = 0, int column = 1) {
  throw InputError(Diagnostic{SourceLocation{file, line, line > 0 ? column : 0}, Severity::error,
                              "profile", std::move(message), std::move(fix)});
}

// One event of the trace, where it is, for its errors: "p.json:12:1: ... traceEvents[3] (k): ...".
struct Event {
  const std::string& file;
  const Json& json;
  Json::ItemPlace place;
  const std::string& name;

  [[noreturn]] void fail(const std::string& what) const {
    trace_error(file,
                "traceEvents[" + std::to_string(place.index) + "] (" + printable(name) + "): " +
                    what,
                "export the trace with prof.export_chrome_trace(path), unedited", place.line);
  }
};

const std::string* string_member(const Json& event, std::string_view key) {
  const Json* value = event.find(key);
  return value != nullptr && value->kind() == Json::Kind::string ? &value->as_string() : nullptr;
}

// The event's "dur" in µs. A complete event always has one: a missing one would drop the event's
// time from the ranking. Missing, negative, non-numeric or past a day: an error naming the event,
// never a time.
double duration(const Event& event) {
  const Json* value = event.json.find("dur");
  if (value == nullptr) event.fail("a complete event (\"ph\": \"X\") without a \"dur\"");
  const bool number = value->kind() == Json::Kind::integer || value->kind() == Json::Kind::number;
  if (!number || !(value->as_double() >= 0))
    event.fail("\"dur\" is not a duration in µs (a number, 0 or more)");
  if (value->as_double() > kMaxProfiledMicroseconds)
    event.fail("\"dur\" is " + value->dump() + " µs, more than a day: not a duration");
  return value->as_double();
}

// The event's "args", null where it has none; one that is not an object is an error.
const Json* event_args(const Event& event) {
  const Json* args = event.json.find("args");
  if (args != nullptr && args->kind() != Json::Kind::object)
    event.fail("\"args\" is not an object");
  return args;
}

// args."External id", the operator a kernel belongs to; one of another type is an error, never
// read as "launched by no operator".
std::optional<std::int64_t> external_id(const Event& event) {
  const Json* args = event_args(event);
  if (args == nullptr) return std::nullopt;
  const Json* id = args->find("External id");
  if (id == nullptr) return std::nullopt;
  if (id->kind() != Json::Kind::integer) event.fail("args \"External id\" is not an integer");
  return id->as_int();
}

// args."Input Dims": [[1, 131040, 192], [], []] as the table prints it. Absent: no shapes; of
// another type than a list: an error. A list's entry that is not a list of integers (a tensor
// list's shapes) leaves the operator's shapes unknown, as the table would print them otherwise.
std::string input_dims(const Event& event) {
  const Json* args = event_args(event);
  const Json* dims = args != nullptr ? args->find("Input Dims") : nullptr;
  if (dims == nullptr) return "";
  if (dims->kind() != Json::Kind::array)
    event.fail("args \"Input Dims\" is not a list of shapes");
  std::string text = "[";
  for (std::size_t i = 0; i < dims->size(); ++i) {
    const Json& shape = (*dims)[i];
    text += i ? ", [" : "[";
    for (std::size_t j = 0; shape.kind() == Json::Kind::array && j < shape.size(); ++j) {
      if (shape[j].kind() != Json::Kind::integer) return "";
      if (shape[j].as_int() < 0)
        event.fail("args \"Input Dims\" holds a negative size, " +
                   std::to_string(shape[j].as_int()));
      text += (j ? ", " : "") + std::to_string(shape[j].as_int());
    }
    text += "]";
  }
  return text + "]";
}

}  // namespace

Profile parse_chrome_trace(std::string_view text, const std::string& file) {
  using Key = std::tuple<std::string, std::string>;  // name, input dims
  std::map<Key, ProfiledOperator> by_key;
  std::map<std::int64_t, ProfiledOperator*> op_of_id;  // the last operator to carry the id
  // Kernels that name an operator by id, attributed once every operator is known: a trace need
  // not list an operator before its kernels.
  struct IdKernel {
    std::int64_t id;
    std::string name;
    double us;
  };
  std::vector<IdKernel> id_kernels;
  const auto entry = [&](const std::string& name, const std::string& dims) -> ProfiledOperator& {
    Key key{name, dims};
    if (by_key.size() == kMaxProfiledOperators && !by_key.contains(key))
      trace_error(file,
                  "more than " + std::to_string(kMaxProfiledOperators) +
                      " operators (names with their input dims): not a profile of a model",
                  "profile a few steps of the model");
    ProfiledOperator& op = by_key[std::move(key)];
    if (op.name.empty()) {
      op.name = name;
      op.input_shapes = dims;
    }
    return op;
  };
  // The trace says what a user region is (record_function), where a table leaves it to the
  // name: a kernel no operator launched, however it is spelled, is device work.
  std::set<Key> annotations;
  Profile profile;
  profile.source = "chrome trace";
  bool any_device_event = false;
  // One pass, each event read and dropped: the trace's events are never all held as JSON values
  // (tens of bytes each), only what they add to the operators.
  // An event of the wrong shape is an error, never skipped: a complete event without its name
  // or category would drop its time from the ranking without a word.
  const auto read_event = [&](const Json& json, Json::ItemPlace place) {
    static const std::string kUnnamed = "?";
    const std::string* name = string_member(json, "name");
    const Event event{file, json, place, name != nullptr ? *name : kUnnamed};
    if (json.kind() != Json::Kind::object) event.fail("not an object");
    const std::string* phase = string_member(json, "ph");
    if (phase == nullptr) event.fail("no \"ph\" string (the event's phase)");
    if (*phase != "X") return;
    const std::string* category = string_member(json, "cat");
    if (category == nullptr) event.fail("a complete event (\"ph\": \"X\") without a \"cat\" string");
    if (name == nullptr) event.fail("a complete event (\"ph\": \"X\") without a \"name\" string");
    if (*category == "cpu_op" || *category == "user_annotation") {
      const std::string dims = input_dims(event);
      ProfiledOperator& op = entry(*name, dims);
      if (*category == "user_annotation") annotations.insert({*name, dims});
      ++op.calls;
      op.cpu_us += duration(event);
      if (const auto id = external_id(event)) op_of_id[*id] = &op;
    } else if (*category == "kernel" || *category == "gpu_memcpy" ||
               *category == "gpu_memset") {
      const double us = duration(event);
      any_device_event = true;
      profile.device_total_us += us;
      if (const auto id = external_id(event)) {
        id_kernels.push_back({*id, *name, us});
      } else {  // a kernel no operator launched
        ProfiledOperator& op = entry(*name, "");
        ++op.calls;
        op.device_us += us;
      }
    } else if (*category == "cuda_runtime" || *category == "cuda_driver") {
      const double us = duration(event);
      const OperatorKind kind = operator_kind(*name);
      if (kind != OperatorKind::synchronisation && kind != OperatorKind::allocation) return;
      ProfiledOperator& op = entry(*name, "");
      ++op.calls;
      op.cpu_us += us;
    }
  };
  Json trace;
  try {
    trace = Json::parse(text, "traceEvents", read_event);
  } catch (const InputError&) {
    throw;  // an event's own error, already naming it
  } catch (const JsonSyntaxError& error) {
    trace_error(file, "malformed JSON: " + error.what_alone,
                "export the trace with prof.export_chrome_trace(path)", error.line, error.column);
  } catch (const std::runtime_error& error) {
    trace_error(file, error.what(), "export the trace with prof.export_chrome_trace(path)");
  }
  const Json* events = trace.kind() == Json::Kind::object ? trace.find("traceEvents") : nullptr;
  if (events == nullptr || events->kind() != Json::Kind::array)
    trace_error(file, "no \"traceEvents\" array: not a Kineto chrome trace",
                "export the trace with prof.export_chrome_trace(path)");
  for (const IdKernel& kernel : id_kernels) {
    const auto owner = op_of_id.find(kernel.id);
    ProfiledOperator& op = owner != op_of_id.end() ? *owner->second : entry(kernel.name, "");
    if (owner == op_of_id.end()) ++op.calls;  // its id names no operator in the trace
    op.device_us += kernel.us;
  }
  if (!any_device_event)
    trace_error(file,
                "no device events (\"ph\": \"X\" of \"cat\" kernel, gpu_memcpy or gpu_memset): "
                "nothing here ran on a GPU, so nothing can be ranked by device time",
                "profile with activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]");
  if (profile.device_total_us == 0)
    trace_error(file,
                "every device event's \"dur\" is 0: nothing can be ranked by device time",
                "export the trace with prof.export_chrome_trace(path), unedited");
  for (auto& [key, op] : by_key) {
    op.shapes = parse_shapes(op.input_shapes).value_or(std::vector<std::vector<std::int64_t>>{});
    const OperatorKind by_name = operator_kind(op.name);
    op.kind = annotations.contains(key)         ? OperatorKind::region
              : by_name == OperatorKind::region ? OperatorKind::compute
                                                : by_name;
    profile.operators.push_back(std::move(op));
  }
  return profile;
}

Profile parse_profile(std::string_view text, const std::string& file) {
  // export_chrome_trace writes gzip when the path ends in .gz: said, not read as a bad table.
  if (text.substr(0, 2) == "\x1f\x8b")
    trace_error(file, "a gzip-compressed file (a trace saved as .json.gz?)",
                "decompress it first: gunzip -c FILE | layoutcheck profile -");
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a byte-order mark
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return parse_chrome_trace(text, file);
  // "[{", "[]", "[1", "[\"": a JSON array (a trace in the array format, which Kineto does not
  // write, or other JSON). "[W kineto_shim.cpp:…] Warning" is a log line above a table.
  const auto after_bracket = first == std::string_view::npos
                                 ? std::string_view::npos
                                 : text.find_first_not_of(" \t\r\n", first + 1);
  if (first != std::string_view::npos && text[first] == '[' &&
      (after_bracket == std::string_view::npos ||
       std::string_view("{}[]\"-0123456789").find(text[after_bracket]) != std::string_view::npos))
    trace_error(file, "a JSON array, not a chrome trace as Kineto writes it",
                "export the trace with prof.export_chrome_trace(path): {\"traceEvents\": [...]}");
  return parse_operator_table(text, file);
}

}  // namespace layoutcheck
