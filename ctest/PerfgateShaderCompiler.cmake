# The shader compilers perfgate_add_kernels uses:
#   PERFGATE_GLSLC           the system's glslc, for every shader that needs nothing newer;
#   PERFGATE_MATRIX_GLSLC    a glslc that knows GL_KHR_cooperative_matrix and
#                            GL_NV_cooperative_matrix2 (tensor cores at subgroup and workgroup
#                            scope), for the shaders that enable either;
#   PERFGATE_BFLOAT16_GLSLC  one that also knows GL_EXT_bfloat16, for the shaders that enable it.
# Each newer one is "" when there is none, and PERFGATE_<KIND>_GLSLC_MISSING then says why.
# Each is the first of: its cache variable given on the command line, the system's glslc, the
# matrix compiler (for bfloat16), $ENV{PERFGATE_SHADER_COMPILER_DIR}/<sub>bin/glslc and
# ~/.cache/perfgate/shader-compiler/<sub>bin/glslc (where ci/install-shader-compiler.sh unpacks
# Debian 13's, and Debian unstable's into bfloat16/) that compiles its probe
# (ctest/<kind>_glslc_probe.comp). Configure reports which one it uses, or which shaders it leaves out.
include_guard(GLOBAL)
set(_perfgate_probe_dir "${CMAKE_CURRENT_LIST_DIR}")

# Whether `glslc` compiles `probe`; its version line in `version_out`.
function(_perfgate_glslc_compiles glslc probe result_out version_out)
  set(dir "${CMAKE_BINARY_DIR}/perfgate_shader_compiler")
  file(MAKE_DIRECTORY "${dir}")
  execute_process(COMMAND "${glslc}" --target-env=vulkan1.3 "${probe}" -o "${dir}/probe.spv"
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
  execute_process(COMMAND "${glslc}" --version OUTPUT_VARIABLE version ERROR_QUIET)
  string(REGEX MATCH "glslang [^\n]*" version "${version}")
  if(status EQUAL 0)
    set(${result_out} TRUE PARENT_SCOPE)
  else()
    set(${result_out} FALSE PARENT_SCOPE)
  endif()
  set(${version_out} "${version}" PARENT_SCOPE)
endfunction()

# Sets PERFGATE_<KIND>_GLSLC (and _MISSING) to the first candidate that compiles kind's probe.
function(_perfgate_find_newer_glslc kind what installer_sub extra_candidate)
  set(var "PERFGATE_${kind}_GLSLC")
  string(TOLOWER "${kind}" probe)
  set(probe "${_perfgate_probe_dir}/${probe}_glslc_probe.comp")
  set(candidates "")
  if(${var})
    list(APPEND candidates "${${var}}")
  endif()
  list(APPEND candidates "${PERFGATE_GLSLC}" ${extra_candidate})
  if(DEFINED ENV{PERFGATE_SHADER_COMPILER_DIR})
    list(APPEND candidates "$ENV{PERFGATE_SHADER_COMPILER_DIR}/${installer_sub}bin/glslc")
  endif()
  if(DEFINED ENV{HOME})
    list(APPEND candidates "$ENV{HOME}/.cache/perfgate/shader-compiler/${installer_sub}bin/glslc")
  endif()
  _perfgate_glslc_compiles("${PERFGATE_GLSLC}" "${probe}" system_ok system_version)
  foreach(glslc IN LISTS candidates)
    if(NOT EXISTS "${glslc}")
      continue()
    endif()
    _perfgate_glslc_compiles("${glslc}" "${probe}" ok version)
    if(ok)
      message(STATUS "perfgate: shaders that enable ${what} compiled by ${glslc} (${version})")
      set(${var} "${glslc}" CACHE FILEPATH "glslc for the shaders that enable ${what}" FORCE)
      set(${var}_MISSING "" CACHE INTERNAL "")
      return()
    endif()
  endforeach()
  # perfgate's own tree has the script that installs one; an installed package (a consumer's
  # configure) has not, and says what to give instead.
  if(EXISTS "${_perfgate_probe_dir}/../ci/install-shader-compiler.sh")
    set(how "ci/install-shader-compiler.sh installs one")
  else()
    set(how "give one that does, a newer Debian's or the Vulkan SDK's glslc, as -D${var}=PATH")
  endif()
  string(CONCAT why "no glslc here compiles ${what} (the system's has ${system_version}: ${how})")
  message(STATUS "perfgate: ${why}: the shaders that need them are left out of this build")
  set(${var} "" CACHE FILEPATH "glslc for the shaders that enable ${what}" FORCE)
  set(${var}_MISSING "${why}" CACHE INTERNAL "")
endfunction()

function(perfgate_find_shader_compilers)
  find_program(PERFGATE_GLSLC glslc REQUIRED)
  # Probed once at every configure (a few milliseconds): a compiler installed since is found.
  get_property(done GLOBAL PROPERTY PERFGATE_SHADER_COMPILERS_FOUND)
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY PERFGATE_SHADER_COMPILERS_FOUND TRUE)
  _perfgate_find_newer_glslc(MATRIX "GL_KHR_cooperative_matrix and GL_NV_cooperative_matrix2" "" "")
  _perfgate_find_newer_glslc(BFLOAT16 "GL_EXT_bfloat16 with cooperative matrices" "bfloat16/"
                             "${PERFGATE_MATRIX_GLSLC}")
endfunction()

# Which compiler a shader source needs: "" (the system's), MATRIX or BFLOAT16, by the extensions
# it enables.
function(perfgate_shader_glslc_kind shader result_out)
  file(STRINGS "${shader}" lines REGEX "^[ \t]*#[ \t]*extension[ \t]+GL_EXT_bfloat16[ \t]*:")
  if(lines)
    set(${result_out} BFLOAT16 PARENT_SCOPE)
    return()
  endif()
  file(STRINGS "${shader}" lines REGEX "^[ \t]*#[ \t]*extension[ \t]+GL_(KHR_cooperative_matrix|NV_cooperative_matrix2)[ \t]*:")
  if(lines)
    set(${result_out} MATRIX PARENT_SCOPE)
  else()
    set(${result_out} "" PARENT_SCOPE)
  endif()
endfunction()
