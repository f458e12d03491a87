#include "layoutcheck/probe/case_probe_request.h"

#include "layoutcheck/cases/case_layouts.h"

namespace layoutcheck {

CaseProbeRequest case_probe_request(const Case& subject, const CaseProbeFiles& files,
                                    const LoadOptions& load,
                                    const std::filesystem::path& contracts_folder) {
  if (files.producer.empty() || files.consumer.empty())
    throw InputError(Diagnostic{
        SourceLocation{"<command line>"}, Severity::error, "usage",
        "--producer and --consumer are required",
        "layoutcheck probe --case " + subject.name() + " --producer P.yaml --consumer C.yaml"});
  const Contract producer = load_contract(files.producer, load);
  const Contract consumer = load_contract(files.consumer, load);
  CaseProbeRequest request;
  request.buffer = files.buffer.value_or(subject.buffer_described_by(producer));
  if (subject.buffer_described_by(producer) != request.buffer ||
      subject.buffer_described_by(consumer) != request.buffer)
    throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                "--producer and --consumer must describe buffer '" +
                                    request.buffer + "' (they describe '" + producer.buffer +
                                    "' and '" + consumer.buffer + "')",
                                "give two contracts of the probed buffer"});
  std::vector<std::string> model_files = files.producer_with;
  model_files.push_back(files.producer);
  request.model = case_layouts(subject, load, model_files, contracts_folder);
  std::vector<std::string> claimed_files = files.with;
  claimed_files.push_back(files.consumer);
  request.claimed = case_layouts(subject, load, claimed_files, contracts_folder);
  return request;
}

}  // namespace layoutcheck
