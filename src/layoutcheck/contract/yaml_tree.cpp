#include "layoutcheck/contract/yaml_tree.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <sstream>

namespace layoutcheck {
namespace {

// The style parameter of EventHandler's container callbacks: EmitterStyle::value up to yaml-cpp
// 0.9, EmitterStyle after; taken from the base class so both compile.
template <class>
struct LastParameter;
template <class R, class C, class Last>
struct LastParameter<R (C::*)(const YAML::Mark&, const std::string&, YAML::anchor_t, Last)> {
  using type = Last;
};
using Style = LastParameter<decltype(&YAML::EventHandler::OnMapStart)>::type;

// Where each YAML document of text starts, stopping at the second. yaml-cpp 0.7's LoadAll never
// returns on a document that starts with a stray ',' (its parser yields the same empty document
// forever, allocating as it goes); counting with a cap, and spotting a document that starts where
// the previous one did, keeps hostile input from hanging the tool.
// What one pass of yaml-cpp's event parser says before any node is built: where the documents
// start, and the first place the text itself passes the caps (building the node graph of a 16 MiB
// flow sequence first would take gigabytes). Aliases are counted once here; the conversion below
// counts their expansions.
struct Prescan {
  std::vector<YAML::Mark> starts;
  enum class Cap { none, depth, nodes } over_cap = Cap::none;
  YAML::Mark where;
};

Prescan prescan(std::string_view text) {
  struct CapReached {};
  struct Events : YAML::EventHandler {
    Prescan result;
    int depth = 0;
    int nodes = 0;
    void node(const YAML::Mark& mark, bool opens) {
      if (++nodes > kMaxYamlNodes || (opens && ++depth > kMaxYamlDepth)) {
        result.over_cap = nodes > kMaxYamlNodes ? Prescan::Cap::nodes : Prescan::Cap::depth;
        result.where = mark;
        throw CapReached{};
      }
    }
    void OnDocumentStart(const YAML::Mark& mark) override { result.starts.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark, false); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark, false); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  const std::string&) override {
      node(mark, false);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                         Style) override {
      node(mark, true);
    }
    void OnSequenceEnd() override { --depth; }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, Style) override {
      node(mark, true);
    }
    void OnMapEnd() override { --depth; }
  } events;
  std::istringstream stream{std::string(text)};
  YAML::Parser parser(stream);
  try {
    while (events.result.starts.size() < 2 && parser.HandleNextDocument(events)) {
    }
  } catch (const CapReached&) {
  }
  return events.result;
}

// Whether the text begins with the byte order mark of UTF-16 or UTF-32, which yaml-cpp decodes.
bool wide_byte_order_mark(std::string_view text) {
  return text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF") ||
         text.starts_with(std::string_view("\0\0\xFE\xFF", 4));
}

// Whether the quoted scalar whose opening quote is at `open` closes before the end of the text.
// yaml-cpp takes a double-quoted scalar that runs to the end of a file ending in a newline for a
// complete one, so a missing closing quote would swallow the rest of the contract unreported.
bool quote_closes(std::string_view text, std::size_t open) {
  const char quote = text[open];
  for (std::size_t i = open + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;  // an escape: the next character is never the closing quote
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is a quote inside a single-quoted scalar
      } else {
        return true;
      }
    }
  }
  return false;
}

// yaml-cpp's node graph -> tree. An alias shares its anchor's node, so a graph can be exponential
// in the file size (or cyclic, "&a [*a]"); the depth and node caps bound the copy.
class Converter {
 public:
  enum class Cap { none, depth, nodes, bytes };
  Cap over_cap = Cap::none;
  YAML::Mark where;  // the node at which a cap was reached
  std::optional<YAML::Mark> unclosed_quote;

  // Marks count bytes of the UTF-8 text after a byte order mark. yaml-cpp decodes a UTF-16 or
  // UTF-32 file first, so its marks say nothing of the file's bytes: no check there.
  explicit Converter(std::string_view text)
      : text_(text),
        utf8_(!wide_byte_order_mark(text)),
        bom_bytes_(text.starts_with("\xEF\xBB\xBF") ? 3 : 0) {}

  YamlNode convert(const YAML::Node& node, int depth) {
    YamlNode tree;
    if (over_cap != Cap::none) return tree;
    if (depth > kMaxYamlDepth || ++nodes_ > kMaxYamlNodes) {
      over_cap = depth > kMaxYamlDepth ? Cap::depth : Cap::nodes;
      where = node.Mark();
      return tree;
    }
    const YAML::Mark mark = node.Mark();
    if (mark.line >= 0) tree.line = mark.line + 1, tree.column = mark.column + 1;
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        tree.kind = YamlNode::Kind::scalar;
        scalar_bytes_ += node.Scalar().size();
        if (scalar_bytes_ > kMaxYamlScalarBytes) {
          over_cap = Cap::bytes;
          where = mark;
          return tree;
        }
        tree.scalar = node.Scalar();
        tree.quoted = node.Tag() == "!";  // yaml-cpp tags quoted scalars "!", plain ones "?"
        if (tree.quoted && !unclosed_quote && mark.pos >= 0 && utf8_) {
          const std::size_t at = static_cast<std::size_t>(mark.pos) + bom_bytes_;
          if (at < text_.size() && (text_[at] == '"' || text_[at] == '\'') &&
              !quote_closes(text_, at))
            unclosed_quote = mark;
        }
        break;
      case YAML::NodeType::Sequence:
        tree.kind = YamlNode::Kind::sequence;
        for (const YAML::Node& item : node) tree.items.push_back(convert(item, depth + 1));
        break;
      case YAML::NodeType::Map:
        tree.kind = YamlNode::Kind::map;
        for (auto it = node.begin(); it != node.end(); ++it)
          tree.entries.push_back(
              YamlEntry{convert(it->first, depth + 1), convert(it->second, depth + 1)});
        break;
      default:
        break;
    }
    return tree;
  }

 private:
  std::string_view text_;
  bool utf8_;
  std::size_t bom_bytes_;
  int nodes_ = 0;
  std::size_t scalar_bytes_ = 0;
};

}  // namespace

std::optional<YamlNode> parse_yaml(std::string_view text, const std::string& file,
                                   std::vector<Diagnostic>& diagnostics) {
  const auto error = [&](int line, int column, std::string message, std::string fix) {
    diagnostics.push_back({SourceLocation{file, line, column}, Severity::error, "yaml",
                           std::move(message), std::move(fix)});
  };
  const auto report_cap = [&](Converter::Cap cap, const YAML::Mark& where) {
    const bool located = where.line >= 0;
    const int line = located ? where.line + 1 : 1;
    const int column = located ? where.column + 1 : 1;
    if (cap == Converter::Cap::bytes)
      error(line, column,
            "the document's text is more than " + std::to_string(kMaxYamlScalarBytes >> 20) +
                " MiB, aliases counted as often as they are used",
            "write anchors and aliases of long text out plainly, once");
    else if (cap == Converter::Cap::depth)
      error(line, column,
            "the document is nested deeper than " + std::to_string(kMaxYamlDepth) + " levels",
            "a contract needs a few levels: fields, dims, modes");
    else
      error(line, column,
            "the document holds more than " + std::to_string(kMaxYamlNodes) +
                " YAML nodes (aliases counted as often as they are used)",
            "describe repeated parts with dims and strides instead of one entry each, and "
            "write anchors and aliases out plainly");
  };
  // yaml-cpp guesses UTF-16 or UTF-32 from NUL bytes and reads binary data as CJK text; without
  // a byte order mark, a NUL means the file is not text at all.
  if (const std::size_t nul = text.find('\0');
      nul != std::string_view::npos && !wide_byte_order_mark(text)) {
    const std::string_view before = text.substr(0, nul);
    const int line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t line_start = before.rfind('\n');
    const int column =
        1 + static_cast<int>(line_start == std::string_view::npos ? nul : nul - line_start - 1);
    error(line, column, "the file holds a NUL byte: it is binary, not a YAML contract",
          "give the contract's .yaml file");
    return std::nullopt;
  }
  try {
    const Prescan scan = prescan(text);
    const std::vector<YAML::Mark>& starts = scan.starts;
    if (scan.over_cap != Prescan::Cap::none) {
      report_cap(scan.over_cap == Prescan::Cap::depth ? Converter::Cap::depth
                                                      : Converter::Cap::nodes,
                 scan.where);
      return std::nullopt;
    }
    if (starts.size() > 1 && starts[1].pos == starts[0].pos) {
      error(starts[1].line + 1, starts[1].column + 1,
            "malformed YAML: the parser cannot get past this point",
            "remove the stray ',' (flow entries belong inside [ ] or { })");
      return std::nullopt;
    }
    if (starts.size() > 1) {
      error(starts[1].line + 1, 1, "a contract file holds one YAML document, this one has more",
            "split it into one file per contract");
      return std::nullopt;
    }
    Converter converter(text);
    YamlNode tree = converter.convert(YAML::Load(std::string(text)), 0);
    if (converter.over_cap != Converter::Cap::none) {
      report_cap(converter.over_cap, converter.where);
      return std::nullopt;
    }
    if (const auto& open = converter.unclosed_quote) {
      error(open->line + 1, open->column + 1,
            "malformed YAML: this quoted string is never closed (it runs to the end of the file)",
            "add the closing quote");
      return std::nullopt;
    }
    return tree;
  } catch (const YAML::Exception& failure) {  // ParserException, and anything else yaml-cpp throws
    const bool located = failure.mark.line >= 0;
    error(located ? failure.mark.line + 1 : 0, located ? failure.mark.column + 1 : 0,
          "malformed YAML: " + failure.msg, "fix the YAML syntax");
  }
  return std::nullopt;
}

}  // namespace layoutcheck
