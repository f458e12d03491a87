// The Markdown renderings meant for pull-request comments: text from a contract is never markup,
// and the diff report holds its parts in the order a reviewer reads them.
#include <gtest/gtest.h>

#include "layoutcheck/contract/parse.h"
#include "layoutcheck/diff/diff.h"
#include "layoutcheck/render/lint_report.h"
#include "layoutcheck/render/markdown_text.h"
#include "layoutcheck/render/misread_markdown.h"
#include "render/shipped_contract.h"

namespace layoutcheck {
namespace {

TEST(Markdown, TextFromContractsIsNeverMarkup) {
  EXPECT_EQ(markdown_text("a_b *c* [d](e) <script> & | #"),
            "a\\_b \\*c\\* \\[d\\](e) &lt;script&gt; &amp; \\| \\#");
  EXPECT_EQ(markdown_text("group-major -> interleaved"), "group-major → interleaved");
  EXPECT_EQ(markdown_code("V[0:3,0:128]"), "`V[0:3,0:128]`");
  EXPECT_EQ(markdown_code("a|b"), "`a\\|b`");
  EXPECT_EQ(markdown_code("a`b"), "`` a`b ``");
}

TEST(Markdown, DiffReportReadsVerdictTableStructureThenRuns) {
  const Contract flat = shipped_contract("gdn/qwen3_5.qkvz.yaml"),
                 next = shipped_contract("gdn/qwen3_next.qkvz.yaml");
  const std::string md = report_to_markdown(diff_contracts(flat, next), {3, "qkvz-diff.svg"});
  const std::size_t verdict = md.find("**Misread: 15488 of 16384 elements (94.5 %).**");
  const std::size_t table = md.find(
      "| V | 6144 | 5760 | `(48,128):(128,1)` at 4096 | "
      "`((3,16),128):((128,1024),1)` at 256 |");
  const std::size_t structure = md.find("**Structure.** group-major → interleaved");
  const std::size_t runs = md.find("<details><summary>The first 3 of 61 misread runs</summary>");
  const std::size_t picture = md.find("](qkvz-diff.svg)");
  ASSERT_NE(verdict, std::string::npos) << md;
  ASSERT_NE(table, std::string::npos) << md;
  ASSERT_NE(structure, std::string::npos) << md;
  ASSERT_NE(runs, std::string::npos) << md;
  ASSERT_NE(picture, std::string::npos) << md;
  EXPECT_LT(verdict, table);
  EXPECT_LT(table, structure);
  EXPECT_LT(structure, runs);
  EXPECT_LT(runs, picture);
  EXPECT_NE(md.find("</details>"), std::string::npos);

  const std::string same = report_to_markdown(diff_contracts(flat, flat));
  EXPECT_NE(same.find("**OK: the layouts agree.**"), std::string::npos) << same;
  EXPECT_EQ(same.find("<details>"), std::string::npos);
}

TEST(Markdown, LintReportListsEveryFileAndFinding) {
  LintedFile good{"good.yaml", {}, 96, 2};
  LintedFile bad{"bad|name.yaml",
                 {Diagnostic{{"bad|name.yaml", 3, 5},
                             Severity::error,
                             "overlap",
                             "X[1] and Y[0] share <1>",
                             "fix *it*"}}};
  const std::string md = lint_to_markdown({good, bad});
  EXPECT_NE(md.find("**FAILED: 1 of 2 contracts with errors** (1 error)."), std::string::npos)
      << md;
  EXPECT_NE(md.find("| `good.yaml` | ok | 96 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `bad\\|name.yaml:3:5` | error `overlap`: X\\[1\\] and Y\\[0\\] share "
                    "&lt;1&gt; | fix \\*it\\* |"),
            std::string::npos)
      << md;
  EXPECT_NE(lint_to_markdown({good}).find("**OK: every contract passes lint**."),
            std::string::npos);
}

}  // namespace
}  // namespace layoutcheck
