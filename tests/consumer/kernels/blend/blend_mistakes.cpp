// Plans a team gets wrong, on blend's own shader: each must be refused before anything runs, naming
// the shader and the offset or binding (tests/e2e/consumer_package.sh checks the messages). They
// are left out of the default suite, so `consumer_perfgate run` and the CTest tests never meet
// them; only a selection that names one runs it.
#include "blend.h"

using namespace perfgate;

namespace {

// The block as a team had it before the shader grew one coefficient: 104 bytes, not 116.
struct ShortPush {
  std::uint32_t n;
  float scale;
  float coeffs[24];
};
static_assert(sizeof(ShortPush) == 104);

}  // namespace

PERFGATE_KERNEL(blend_short_push) {
  return blend::definition("blend_short_push")
      .describe("plan mistake: pushes 104 bytes to blend's 116-byte block (refused)")
      .in_default_suite(false)
      .vulkan([](const Params& p, const DeviceLimits&) {
        Dispatch d = blend::dispatch(p);
        ShortPush block{static_cast<std::uint32_t>(p["n"]), blend::kScale, {}};
        d.push(block);
        return VulkanPlan{{d}};
      });
}

PERFGATE_KERNEL(blend_unbound_w) {
  return blend::definition("blend_unbound_w")
      .describe("plan mistake: leaves binding 1 of set 1 (w) without a buffer (refused)")
      .in_default_suite(false)
      .vulkan([](const Params& p, const DeviceLimits&) {
        Dispatch d = blend::dispatch(p);
        d.bound.pop_back();
        return VulkanPlan{{d}};
      });
}
