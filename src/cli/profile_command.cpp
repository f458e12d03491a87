// layoutcheck profile FILE|- [--json] [--copy-bandwidth GBPS] [--dtype-bytes N] [--top N]:
// a PyTorch profile (the key_averages().table() text, with or without group_by_input_shape, or a
// Kineto chrome trace) ranked for specialisation (layoutcheck/profile/profile.h), as Markdown for
// a pull request or an issue, or JSON.
// Exit 0 ranked, 2 input errors (an unreadable or malformed profile, with its line).
#include <iostream>

#include "commands.h"
#include "common.h"
#include "layoutcheck/contract/read_file.h"
#include "layoutcheck/profile/profile.h"

namespace layoutcheck::cli {
namespace {

struct ProfileCommandOptions {
  std::string file;
  bool json = false;
  ProfileOptions ranking;
};

int run_profile(const ProfileCommandOptions& options) {
  const std::string text = read_text_argument(options.file, kMaxProfileBytes, "profile", "profile");
  const Profile profile = parse_profile(text, contract_argument_name(options.file));
  if (options.json)
    std::cout << profile_json(profile, options.ranking).dump() << "\n";
  else
    std::cout << profile_markdown(profile, options.ranking);
  return kClean;
}

}  // namespace

Command setup_profile_command(CLI::App& parent) {
  auto options = std::make_shared<ProfileCommandOptions>();
  CLI::App* app = parent.add_subcommand(
      "profile",
      "Rank a PyTorch profile's operators for specialisation: calls x shape x device time, bytes "
      "and copy bandwidth of memory-bound ones, copies, allocations and synchronisations");
  app->add_option("file", options->file,
                  "key_averages().table() text, or a chrome trace (export_chrome_trace); - reads "
                  "standard input")
      ->required();
  app->add_flag("--json", options->json, "Print JSON instead of Markdown");
  app->add_option("--copy-bandwidth", options->ranking.copy_bandwidth_gbps,
                  "Copy bandwidth of the profiled device in GB/s, for the share memory-bound "
                  "operators reach")
      ->check(finite_number_between(0.001, 1e6));
  app->add_option(
         "--dtype-bytes", options->ranking.element_bytes,
         "Bytes per element where the profile gives shapes but no dtypes (default 2: fp16)")
      ->check(CLI::Range(1, 8));
  app->add_option("--top", options->ranking.top, "Candidates listed (default 20)")
      ->check(CLI::Range(1, 100000));
  return {app, [options] { return run_profile(*options); }, [options] { return options->json; }};
}

}  // namespace layoutcheck::cli
