#include "vulkan/shader_interface.h"

#include <spirv_cross_c.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "perfgate/error.h"

namespace perfgate::vk {
namespace {

using ContextHandle = std::unique_ptr<spvc_context_s, decltype(&spvc_context_destroy)>;

[[noreturn]] void fail(spvc_context context, const std::string& shader, const char* step) {
  throw Error("shader '" + shader + "': SPIR-V reflection failed (" + step +
              "): " + spvc_context_get_last_error_string(context));
}

std::vector<spvc_reflected_resource> resources_of(spvc_context context, spvc_resources resources,
                                                  spvc_resource_type type, const std::string& shader) {
  const spvc_reflected_resource* list = nullptr;
  std::size_t count = 0;
  if (spvc_resources_get_resource_list_for_type(resources, type, &list, &count) != SPVC_SUCCESS)
    fail(context, shader, "resource list");
  return {list, list + count};
}

// The block's type name as the GLSL source declares it (`Blend` in `uniform Blend { ... } p;`),
// else its instance name; "" when the module carries neither (glslc -O, as perfgate_add_kernels
// compiles, strips them: messages then name the set, binding and offset only).
std::string block_name(spvc_compiler compiler, const spvc_reflected_resource& resource) {
  // Not resource.name: for a nameless block SPIRV-Cross makes one up from ids ("_51_53").
  for (spvc_variable_id id : {resource.base_type_id, resource.id}) {
    const char* name = spvc_compiler_get_name(compiler, id);
    if (name && *name) return name;
  }
  return "";
}

std::string glsl_type_name(spvc_basetype type) {
  switch (type) {
    case SPVC_BASETYPE_BOOLEAN: return "bool";
    case SPVC_BASETYPE_INT8: return "int8_t";
    case SPVC_BASETYPE_UINT8: return "uint8_t";
    case SPVC_BASETYPE_INT16: return "int16_t";
    case SPVC_BASETYPE_UINT16: return "uint16_t";
    case SPVC_BASETYPE_INT32: return "int";
    case SPVC_BASETYPE_UINT32: return "uint";
    case SPVC_BASETYPE_INT64: return "int64_t";
    case SPVC_BASETYPE_UINT64: return "uint64_t";
    case SPVC_BASETYPE_FP16: return "float16_t";
    case SPVC_BASETYPE_FP32: return "float";
    case SPVC_BASETYPE_FP64: return "double";
    default: return "type " + std::to_string(int(type));
  }
}

bool is_32_bits(const std::string& glsl_type) {
  return glsl_type == "int" || glsl_type == "uint" || glsl_type == "float" || glsl_type == "bool";
}

std::string declared_constants(const ShaderInterface& shader) {
  std::string list;
  for (const auto& c : shader.constants)
    list += (list.empty() ? "" : ", ") + std::to_string(c.id) + " (" + c.type + ")";
  return list.empty() ? "none" : list;
}

// The constants of a dispatch against the shader's: each constant_id once, a typed constant only
// where the shader declares one of that type, a word only to a 32-bit one.
void check_constants(const std::string& where, const Dispatch& dispatch, const ShaderInterface& shader) {
  const std::vector<SpecConstant> given = dispatch.all_constants();
  for (std::size_t i = 0; i < given.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (given[i].id == given[j].id)
        throw Error(where + ": specialization constant_id " + std::to_string(given[i].id) +
                    " is given twice (" + std::string(to_string(given[j].type)) + " " +
                    given[j].value_text() + ", then " + std::string(to_string(given[i].type)) + " " +
                    given[i].value_text() + ")");
  if (!shader.unreadable.empty()) return;
  for (const SpecConstant& c : given) {
    const auto declared = std::find_if(shader.constants.begin(), shader.constants.end(),
                                       [&](const ShaderConstant& s) { return s.id == c.id; });
    const std::string what = "specialization constant_id " + std::to_string(c.id);
    if (declared == shader.constants.end()) {
      // An untyped word for an id the shader lacks is ignored, as Vulkan ignores such map entries.
      if (c.type == ConstantType::word) continue;
      throw Error(where + ": the shader declares no " + what + " (the dispatch gives " +
                  std::string(to_string(c.type)) + " " + c.value_text() +
                  "; the shader declares: " + declared_constants(shader) + ")");
    }
    if (c.type == ConstantType::word ? !is_32_bits(declared->type) : declared->type != to_string(c.type))
      throw Error(where + ": " + what + " is " + declared->type + " in the shader, the dispatch gives " +
                  std::string(to_string(c.type)) + " " + c.value_text());
  }
}

// Calls `f(opcode, operands)` for each instruction of the module after its 5-word header (each
// instruction's first word is its word count << 16 | opcode), stopping at a malformed one.
template <class F>
void for_each_instruction(std::span<const std::uint32_t> words, F f) {
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0 || at + count > words.size()) return;
    f(opcode, words.subspan(at + 1, count - 1));
    at += count;
  }
}

// The operands of the module's OpCapability instructions (opcode 17).
std::vector<std::uint32_t> declared_capabilities(std::span<const std::uint32_t> words) {
  constexpr std::uint32_t kOpCapability = 17;
  std::vector<std::uint32_t> capabilities;
  for_each_instruction(words, [&](std::uint32_t opcode, std::span<const std::uint32_t> operands) {
    if (opcode == kOpCapability && operands.size() == 1) capabilities.push_back(operands[0]);
  });
  return capabilities;
}

// The workgroup size read from the words themselves: SPIRV-Cross (2021) cannot parse the
// cooperative-matrix shaders at all, and does not resolve SPIR-V 1.6's OpExecutionModeId
// LocalSizeId (glslc --target-env=vulkan1.3) into its constants. In order of precedence: a constant
// decorated BuiltIn WorkgroupSize, LocalSizeId, the LocalSize literals; each size a constant's
// value and, for a specialization constant, its SpecId.
struct WorkgroupSize {
  std::array<std::uint32_t, 3> size{1, 1, 1};
  std::array<std::int64_t, 3> constant{-1, -1, -1};
};
std::optional<WorkgroupSize> workgroup_size_of(std::span<const std::uint32_t> words) {
  constexpr std::uint32_t kExecutionMode = 16, kConstant = 43, kConstantComposite = 44, kSpecConstant = 50,
                          kSpecConstantComposite = 51, kDecorate = 71, kExecutionModeId = 331;
  constexpr std::uint32_t kLocalSize = 17, kLocalSizeId = 38, kSpecId = 1, kBuiltIn = 11,
                          kWorkgroupSizeBuiltIn = 25;
  std::array<std::uint32_t, 3> literal{}, ids{};
  std::uint32_t builtin = 0;
  std::map<std::uint32_t, std::uint32_t> values, spec_ids;
  std::map<std::uint32_t, std::array<std::uint32_t, 3>> composites;
  for_each_instruction(words, [&](std::uint32_t opcode, std::span<const std::uint32_t> op) {
    if (opcode == kExecutionMode && op.size() == 5 && op[1] == kLocalSize)
      literal = {op[2], op[3], op[4]};
    else if (opcode == kExecutionModeId && op.size() == 5 && op[1] == kLocalSizeId)
      ids = {op[2], op[3], op[4]};
    else if (opcode == kDecorate && op.size() == 3 && op[1] == kSpecId)
      spec_ids[op[0]] = op[2];
    else if (opcode == kDecorate && op.size() == 3 && op[1] == kBuiltIn && op[2] == kWorkgroupSizeBuiltIn)
      builtin = op[0];
    else if ((opcode == kConstant || opcode == kSpecConstant) && op.size() == 3)
      values[op[1]] = op[2];
    else if ((opcode == kConstantComposite || opcode == kSpecConstantComposite) && op.size() == 5)
      composites[op[1]] = {op[2], op[3], op[4]};
  });
  if (const auto c = composites.find(builtin); builtin != 0 && c != composites.end()) ids = c->second;
  WorkgroupSize out;
  if (ids[0] == 0) {
    if (literal[0] == 0) return std::nullopt;
    out.size = literal;
    return out;
  }
  for (std::size_t i = 0; i < 3; ++i) {
    if (const auto v = values.find(ids[i]); v != values.end()) out.size[i] = v->second;
    if (const auto c = spec_ids.find(ids[i]); c != spec_ids.end()) out.constant[i] = c->second;
  }
  return out;
}

}  // namespace

ShaderInterface reflect_shader(const std::string& shader, std::span<const std::uint32_t> words) {
  spvc_context raw = nullptr;
  if (spvc_context_create(&raw) != SPVC_SUCCESS)
    throw Error("shader '" + shader + "': no SPIRV-Cross context");
  ContextHandle context(raw, &spvc_context_destroy);
  spvc_parsed_ir ir = nullptr;
  constexpr std::uint32_t kSpirvMagic = 0x07230203;
  if (words.size() < 5 || words[0] != kSpirvMagic)
    throw Error("shader '" + shader + "': not a SPIR-V module (" + std::to_string(words.size()) +
                " words, no SPIR-V magic number)");
  if (spvc_context_parse_spirv(raw, words.data(), words.size(), &ir) != SPVC_SUCCESS) {
    // A module glslc accepted but this SPIRV-Cross cannot parse (opcodes of an extension it
    // predates, such as the NV cooperative matrix ops of Debian 12's 2021 release): the dispatch
    // goes unchecked rather than the case unmeasured; the driver still validates it.
    ShaderInterface unread;
    unread.unreadable = spvc_context_get_last_error_string(raw);
    unread.capabilities = declared_capabilities(words);
    if (const auto size = workgroup_size_of(words)) {
      unread.local_size = size->size;
      unread.local_size_constant = size->constant;
    }
    return unread;
  }
  spvc_compiler compiler = nullptr;
  if (spvc_context_create_compiler(raw, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) !=
      SPVC_SUCCESS)
    fail(raw, shader, "compiler");
  spvc_resources resources = nullptr;
  if (spvc_compiler_create_shader_resources(compiler, &resources) != SPVC_SUCCESS)
    fail(raw, shader, "resources");

  ShaderInterface out;
  for (const auto& block : resources_of(raw, resources, SPVC_RESOURCE_TYPE_PUSH_CONSTANT, shader)) {
    std::size_t bytes = 0;
    if (spvc_compiler_get_declared_struct_size(
            compiler, spvc_compiler_get_type_handle(compiler, block.base_type_id), &bytes) != SPVC_SUCCESS)
      fail(raw, shader, "push-constant size");
    out.push_constant_bytes = static_cast<std::uint32_t>(bytes);
    out.push_constant_name = block_name(compiler, block);
  }
  for (auto type : {SPVC_RESOURCE_TYPE_STORAGE_BUFFER, SPVC_RESOURCE_TYPE_UNIFORM_BUFFER})
    for (const auto& buffer : resources_of(raw, resources, type, shader))
      out.bindings.push_back({spvc_compiler_get_decoration(compiler, buffer.id, SpvDecorationDescriptorSet),
                              spvc_compiler_get_decoration(compiler, buffer.id, SpvDecorationBinding),
                              block_name(compiler, buffer)});
  if (const auto size = workgroup_size_of(words)) {
    out.local_size = size->size;
    out.local_size_constant = size->constant;
  }
  const spvc_specialization_constant* constants = nullptr;
  std::size_t constant_count = 0;
  if (spvc_compiler_get_specialization_constants(compiler, &constants, &constant_count) != SPVC_SUCCESS)
    fail(raw, shader, "specialization constants");
  for (std::size_t i = 0; i < constant_count; ++i) {
    const spvc_constant constant = spvc_compiler_get_constant_handle(compiler, constants[i].id);
    const spvc_type type = spvc_compiler_get_type_handle(compiler, spvc_constant_get_type(constant));
    out.constants.push_back({constants[i].constant_id, glsl_type_name(spvc_type_get_basetype(type))});
  }
  std::sort(out.constants.begin(), out.constants.end(),
            [](const ShaderConstant& a, const ShaderConstant& b) { return a.id < b.id; });
  const SpvCapability* capabilities = nullptr;
  std::size_t capability_count = 0;
  if (spvc_compiler_get_declared_capabilities(compiler, &capabilities, &capability_count) != SPVC_SUCCESS)
    fail(raw, shader, "capabilities");
  for (std::size_t i = 0; i < capability_count; ++i) out.capabilities.push_back(capabilities[i]);
  std::sort(out.bindings.begin(), out.bindings.end(), [](const ShaderBinding& a, const ShaderBinding& b) {
    return a.set != b.set ? a.set < b.set : a.binding < b.binding;
  });
  return out;
}

std::array<std::uint32_t, 3> ShaderInterface::local_size_with(const std::vector<SpecConstant>& given) const {
  std::array<std::uint32_t, 3> size = local_size;
  for (std::size_t i = 0; i < 3; ++i)
    for (const SpecConstant& c : given)
      if (local_size_constant[i] == std::int64_t{c.id}) size[i] = c.bits;
  return size;
}

void check_dispatch(const std::string& kernel, const Dispatch& dispatch, const ShaderInterface& shader) {
  const std::string where = "the Vulkan plan of " + kernel + ", shader '" + dispatch.shader + "'";
  check_constants(where, dispatch, shader);
  if (!shader.unreadable.empty()) return;
  const auto given_bytes = static_cast<std::uint32_t>(dispatch.push_constants.size() * sizeof(std::uint32_t));
  if (given_bytes < shader.push_constant_bytes)
    throw Error(where + ": its push-constant block " +
                (shader.push_constant_name.empty() ? "" : shader.push_constant_name + " ") + "is " +
                std::to_string(shader.push_constant_bytes) + " bytes, the dispatch gives " +
                std::to_string(given_bytes) + " (offset " + std::to_string(given_bytes) +
                " onwards would be undefined)");
  const std::vector<BufferBinding> given = dispatch.all_bindings();
  for (const auto& b : shader.bindings) {
    const bool bound = std::any_of(given.begin(), given.end(), [&](const BufferBinding& g) {
      return g.set == b.set && g.binding == b.binding;
    });
    if (!bound)
      throw Error(where + ": binding " + std::to_string(b.binding) + " of set " + std::to_string(b.set) +
                  (b.name.empty() ? "" : " (block " + b.name + ")") +
                  " has no buffer in the dispatch, which binds " + std::to_string(given.size()));
  }
}

}  // namespace perfgate::vk
