#include "layoutcheck/gpu/buffer.h"

namespace layoutcheck::gpu {

std::string guard_damage_message(const std::string& buffer, std::size_t buffer_bytes,
                                 std::size_t guard_bytes, const GuardDamage& damage) {
  return std::to_string(damage.changed) + " of the " + std::to_string(guard_bytes) +
         " bytes after '" + buffer + "' were written, the first " + std::to_string(damage.first) +
         " bytes past its end (byte offset " + std::to_string(buffer_bytes + damage.first) + ")";
}

}  // namespace layoutcheck::gpu
