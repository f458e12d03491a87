#include "layoutcheck/probe/case_probe_request.h"

#include "layoutcheck/cases/case_layouts.h"
#include "layoutcheck/probe/case_probe.h"

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
  // The case's buffers, as the case reads each contract (a windows contract names the grid's
  // buffer, x, yet describes the case's 'windows').
  const std::string produced = subject.buffer_described_by(producer);
  const std::string consumed = subject.buffer_described_by(consumer);
  request.buffer = files.buffer.value_or(produced);
  if (produced != request.buffer || consumed != request.buffer)
    throw InputError(Diagnostic{SourceLocation{"<command line>"}, Severity::error, "usage",
                                "--producer and --consumer must describe buffer '" +
                                    request.buffer + "' of case '" + subject.name() +
                                    "' (they describe its '" + produced + "' and '" + consumed +
                                    "')",
                                "give two contracts of the probed buffer"});
  require_case_buffer(subject, request.buffer, files.producer);
  require_probeable_buffer(subject, request.buffer);
  request.model =
      case_layouts(subject, load, files.producer_with, contracts_folder, request.buffer);
  request.model[request.buffer] = producer;
  request.claimed = case_layouts(subject, load, files.with, contracts_folder, request.buffer);
  request.claimed[request.buffer] = consumer;
  request.check_inputs_not_probed = true;
  return request;
}

}  // namespace layoutcheck
