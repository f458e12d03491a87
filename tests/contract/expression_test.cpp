// The expression evaluator: precedence, unary minus, checked arithmetic and error columns.
#include "layoutcheck/contract/expression.h"

#include <gtest/gtest.h>

#include <limits>

namespace layoutcheck {
namespace {

const SymbolTable kSymbols = {{"H", 16}, {"HV", 48}, {"K", 128}, {"V", 128}, {"BIG", 1LL << 62}};

std::int64_t eval(const std::string& text, const SymbolTable& symbols = kSymbols) {
  return Expression::parse(text, {"t.yaml", 3, 10}).evaluate(symbols);
}

// The one diagnostic an expression throws, parsing or evaluating.
Diagnostic failure(const std::string& text, const SymbolTable& symbols = kSymbols) {
  try {
    eval(text, symbols);
  } catch (const InputError& error) {
    EXPECT_EQ(error.diagnostics().size(), 1u);
    return error.diagnostics().front();
  }
  ADD_FAILURE() << "'" << text << "' did not throw";
  return {};
}

TEST(Expression, Literals) {
  EXPECT_EQ(eval("0"), 0);
  EXPECT_EQ(eval("128"), 128);
  EXPECT_EQ(eval("  42  "), 42);
  EXPECT_EQ(eval("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
}

TEST(Expression, Precedence) {
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("2*H*K + 2*HV*V"), 16384);
  EXPECT_EQ(eval("20 - 6 - 4"), 10);  // left associative
  EXPECT_EQ(eval("64 / 4 / 2"), 8);
  EXPECT_EQ(eval("17 % 5 * 2"), 4);
  EXPECT_EQ(eval("HV / H"), 3);
  EXPECT_EQ(eval("H * (2*K + 2*(HV/H)*V)"), 16384);
}

TEST(Expression, UnaryMinus) {
  EXPECT_EQ(eval("-5"), -5);
  EXPECT_EQ(eval("--5"), 5);
  EXPECT_EQ(eval("3 - -2"), 5);
  EXPECT_EQ(eval("-H * 2"), -32);
  EXPECT_EQ(eval("-(H + 1)"), -17);
  EXPECT_EQ(eval("-7 / 7"), -1);
}

TEST(Expression, SymbolsInOrderOfFirstUse) {
  const Expression e = Expression::parse("HV / H + HV * K", {});
  EXPECT_EQ(e.symbols(), (std::vector<std::string>{"HV", "H", "K"}));
  EXPECT_TRUE(Expression::parse("2 * 3", {}).symbols().empty());
  EXPECT_EQ(Expression::literal(-12).evaluate({}), -12);
}

TEST(Expression, InexactDivisionNamesTheOperands) {
  const Diagnostic d = failure("HV / H", {{"HV", 50}, {"H", 16}});
  EXPECT_EQ(d.rule, "divisibility");
  EXPECT_EQ(d.message, "HV / H: 50 is not divisible by 16");
  EXPECT_EQ(d.where.column, 13);  // the '/' at offset 3 of an expression starting at column 10
  EXPECT_EQ(failure("2 * (K / 3)").message, "(K / 3): 128 is not divisible by 3");
  EXPECT_EQ(failure("K / 0").rule, "divisibility");
  EXPECT_EQ(failure("K % (H - 16)").rule, "divisibility");
}

TEST(Expression, OverflowIsAnError) {
  for (const char* text : {"BIG * 2", "BIG + BIG", "-BIG - BIG - BIG", "BIG * BIG / BIG",
                           "9223372036854775808", "99999999999999999999"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(failure(text).rule, "overflow");
  }
  EXPECT_EQ(failure("BIG * 2").message,
            "'BIG * 2' overflows a 64-bit integer (4611686018427387904 * 2)");
  EXPECT_EQ(failure("1 + BIG * 2").where.column, 10 + 8);
  // The most negative value divided by -1 is the one signed division that overflows.
  EXPECT_EQ(failure("(-BIG - BIG) / -1").rule, "overflow");
  EXPECT_EQ(eval("-BIG - BIG"), std::numeric_limits<std::int64_t>::min());
}

TEST(Expression, UndefinedSymbolListsTheDefinedOnes) {
  const Diagnostic d = failure("2 * KK");
  EXPECT_EQ(d.rule, "undefined-symbol");
  EXPECT_EQ(d.message, "undefined symbol 'KK' (defined: BIG, H, HV, K, V)");
  EXPECT_NE(d.fix.find("did you mean 'K'"), std::string::npos);
  EXPECT_EQ(d.where.file, "t.yaml");
  EXPECT_EQ(d.where.line, 3);
  EXPECT_EQ(d.where.column, 14);
}

TEST(Expression, SyntaxErrorsNameTheColumn) {
  struct Case {
    const char* text;
    int offset;  // 0-based position of the offending token
  };
  for (const Case c :
       {Case{"", 0}, Case{"2 +", 3}, Case{"2 ** H", 3}, Case{"(H", 2}, Case{"H)", 1},
        Case{"2.5", 0}, Case{"0x10", 0}, Case{"H K", 2}, Case{"H + $", 4}, Case{"()", 1}}) {
    SCOPED_TRACE(c.text);
    const Diagnostic d = failure(c.text);
    EXPECT_EQ(d.rule, "expression");
    EXPECT_EQ(d.where.column, 10 + c.offset);
  }
}

TEST(Expression, NoLocationStaysWithoutColumn) {
  try {
    Expression::parse("H +", {}).evaluate(kSymbols);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.diagnostics()[0].where.line, 0);
    EXPECT_EQ(error.diagnostics()[0].where.column, 0);
  }
}

TEST(SymbolAssignment, ParsesNameEqualsInteger) {
  EXPECT_EQ(parse_symbol_assignment("HV=32"), (std::pair<std::string, std::int64_t>{"HV", 32}));
  EXPECT_EQ(parse_symbol_assignment("x_1=-3").second, -3);
  EXPECT_EQ(parse_symbol_assignment("X=-9223372036854775808").second,
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(parse_symbol_assignment("X=9223372036854775807").second,
            std::numeric_limits<std::int64_t>::max());
  for (const char* bad : {"HV", "=3", "HV=", "HV=3x", "3H=1", "HV=99999999999999999999", "H V=1",
                          "X=9223372036854775808", "X=-9223372036854775809", "X=-"}) {
    SCOPED_TRACE(bad);
    try {
      parse_symbol_assignment(bad);
      FAIL();
    } catch (const InputError& error) {
      EXPECT_EQ(error.diagnostics()[0].rule, "usage");
      EXPECT_EQ(error.diagnostics()[0].where.file, "<command line>");
    }
  }
}

// Launch-geometry functions: min, max, ceil_div, nested and mixed with operators.
TEST(ExpressionFunctions, Values) {
  EXPECT_EQ(eval("min(H, HV)"), 16);
  EXPECT_EQ(eval("max(H, HV)"), 48);
  EXPECT_EQ(eval("min(-3, 2)"), -3);
  EXPECT_EQ(eval("ceil_div(HV, 5)"), 10);
  EXPECT_EQ(eval("ceil_div(48, 16)"), 3);
  EXPECT_EQ(eval("ceil_div(0, 7)"), 0);
  EXPECT_EQ(eval("ceil_div(-7, 2)"), -3);
  EXPECT_EQ(eval("ceil_div(BIG, 3)"), (1LL << 62) / 3 + 1);
  EXPECT_EQ(eval("2 * ceil_div(H * K, 100) + 1"), 2 * 21 + 1);
  EXPECT_EQ(eval("max(min(H, 4), ceil_div(K, max(V, 1)))"), 4);
  EXPECT_EQ(eval("min ( H , 3 )"), 3);
}

TEST(ExpressionFunctions, NamesStaySymbolsWithoutParentheses) {
  EXPECT_EQ(eval("min + 1", {{"min", 4}}), 5);
  const Expression e = Expression::parse("ceil_div(H, W) + max(K, H)", {"t.yaml", 3, 10});
  EXPECT_EQ(e.symbols(), (std::vector<std::string>{"H", "W", "K"}));
}

TEST(ExpressionFunctions, ErrorsNameTheColumn) {
  Diagnostic d = failure("1 + floor(H, 2)");
  EXPECT_EQ(d.rule, "expression");
  EXPECT_NE(d.message.find("unknown function 'floor'"), std::string::npos) << d.message;
  EXPECT_EQ(d.where.column, 10 + 4);

  d = failure("min(H)");
  EXPECT_EQ(d.rule, "expression");
  EXPECT_EQ(d.where.column, 10 + 5);  // where the ',' was expected

  d = failure("max(H, K, V)");
  EXPECT_EQ(d.rule, "expression");
  EXPECT_EQ(d.where.column, 10 + 8);

  d = failure("min(H, K");
  EXPECT_EQ(d.rule, "expression");

  d = failure("2 * ceil_div(H, K - 128)");
  EXPECT_EQ(d.rule, "divisibility");
  EXPECT_EQ(d.where.column, 10 + 4);
  EXPECT_NE(d.message.find("zero"), std::string::npos) << d.message;

  d = failure("ceil_div(H, -2)");
  EXPECT_EQ(d.rule, "divisibility");

  d = failure("max(1, BIG * 4)");
  EXPECT_EQ(d.rule, "overflow");
  EXPECT_EQ(d.where.column, 10 + 11);

  d = failure("min(H, nope)");
  EXPECT_EQ(d.rule, "undefined-symbol");
  EXPECT_EQ(d.where.column, 10 + 7);
}

}  // namespace
}  // namespace layoutcheck
