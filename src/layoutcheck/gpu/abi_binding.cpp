#include "layoutcheck/gpu/abi_binding.h"

#include <algorithm>
#include <span>
#include <utility>

namespace layoutcheck::gpu {

void DeviceBufferSet::upload(const BufferSet& host) {
  for (const HostBuffer& buffer : host.all()) {
    auto found = buffers_.find(buffer.name);
    if (found == buffers_.end() || found->second.size() != buffer.bytes.size())
      found = buffers_
                  .insert_or_assign(buffer.name,
                                    DeviceBuffer<std::uint8_t>(buffer.bytes.size(), guard_bytes_))
                  .first;
    found->second.upload(std::span<const std::uint8_t>(buffer.bytes));
    found->second.set_guard();
  }
}

std::vector<std::pair<std::string, std::string>> DeviceBufferSet::guard_findings() const {
  std::vector<std::pair<std::string, std::string>> findings;
  for (const auto& [name, buffer] : buffers_)
    if (const std::optional<GuardDamage> damage = buffer.guard_damage())
      findings.emplace_back(
          name, guard_damage_message(name, buffer.size(), buffer.guard_bytes(), *damage));
  return findings;
}

void DeviceBufferSet::download(BufferSet& host, std::string_view name) const {
  const auto found = buffers_.find(name);
  if (found == buffers_.end())
    throw GpuError("buffer '" + std::string(name) + "' is not on the device");
  HostBuffer& buffer = host.at(name);
  if (buffer.bytes.size() != found->second.size())
    throw GpuError("buffer '" + std::string(name) + "' changed size on the host");
  found->second.download(std::span<std::uint8_t>(buffer.bytes));
}

void DeviceBufferSet::fill_bytes(std::string_view name, int byte_value) {
  const auto found = buffers_.find(name);
  if (found == buffers_.end())
    throw GpuError("buffer '" + std::string(name) + "' is not on the device");
  found->second.fill_bytes(byte_value);
}

void* DeviceBufferSet::data(std::string_view name) const {
  const auto found = buffers_.find(name);
  if (found == buffers_.end())
    throw GpuError("buffer '" + std::string(name) + "' is not on the device");
  return const_cast<std::uint8_t*>(found->second.data());
}

AbiBindingRegistry& AbiBindingRegistry::instance() {
  static AbiBindingRegistry registry;
  return registry;
}

void AbiBindingRegistry::add(AbiBinding binding) {
  const std::lock_guard lock(mutex_);
  const auto same = std::find_if(bindings_.begin(), bindings_.end(),
                                 [&](const AbiBinding& b) { return b.abi == binding.abi; });
  if (same != bindings_.end())
    *same = std::move(binding);
  else
    bindings_.push_back(std::move(binding));
}

AbiBinding AbiBindingRegistry::get(std::string_view abi) const {
  const std::lock_guard lock(mutex_);
  for (const AbiBinding& binding : bindings_)
    if (binding.abi == abi) return binding;
  std::string known;
  for (const AbiBinding& binding : bindings_) known += (known.empty() ? "" : ", ") + binding.abi;
  throw InputError(Diagnostic{SourceLocation{}, Severity::error, "abi",
                              "no GPU binding for ABI '" + std::string(abi) + "'",
                              "bindings in this build: " + (known.empty() ? "none" : known)});
}

std::vector<std::string> AbiBindingRegistry::names() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const AbiBinding& binding : bindings_) names.push_back(binding.abi);
  return names;
}

std::int64_t required_symbol(const SymbolTable& symbols, std::string_view name,
                             std::string_view abi) {
  const auto found = symbols.find(name);
  if (found == symbols.end())
    throw InputError(Diagnostic{SourceLocation{}, Severity::error, "abi",
                                "ABI " + std::string(abi) + " needs the symbol '" +
                                    std::string(name) + "', which no contract of the port declares",
                                ""});
  return found->second;
}

}  // namespace layoutcheck::gpu
