# The shader compilers perfgate_add_kernels uses:
#   PERFGATE_GLSLC         the system's glslc, for every shader that needs nothing newer;
#   PERFGATE_MATRIX_GLSLC  a glslc that knows GL_KHR_cooperative_matrix and
#                          GL_NV_cooperative_matrix2 (tensor cores at subgroup and workgroup
#                          scope), for the shaders that enable either; "" when there is none,
#                          and PERFGATE_MATRIX_GLSLC_MISSING then says why.
# The matrix compiler is the first of: the cache variable PERFGATE_MATRIX_GLSLC given on the
# command line, the system's glslc, $ENV{PERFGATE_SHADER_COMPILER_DIR}/bin/glslc and
# ~/.cache/perfgate/shader-compiler/bin/glslc (where ci/install-shader-compiler.sh puts Debian
# 13's) that compiles a workgroup-scope matrix loaded through a tensor layout. Configure reports
# which one it uses, or which shaders it leaves out.
include_guard(GLOBAL)
set(_perfgate_matrix_probe "${CMAKE_CURRENT_LIST_DIR}/matrix_glslc_probe.comp")

# Whether `glslc` compiles the probe; its version line in `version_out`.
function(_perfgate_glslc_knows_matrices glslc result_out version_out)
  set(dir "${CMAKE_BINARY_DIR}/perfgate_shader_compiler")
  file(MAKE_DIRECTORY "${dir}")
  execute_process(COMMAND "${glslc}" --target-env=vulkan1.3 "${_perfgate_matrix_probe}" -o "${dir}/probe.spv"
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

function(perfgate_find_shader_compilers)
  find_program(PERFGATE_GLSLC glslc REQUIRED)
  # Probed once at every configure (a few milliseconds): a compiler installed since is found.
  get_property(done GLOBAL PROPERTY PERFGATE_SHADER_COMPILERS_FOUND)
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY PERFGATE_SHADER_COMPILERS_FOUND TRUE)
  set(candidates "")
  if(PERFGATE_MATRIX_GLSLC)
    list(APPEND candidates "${PERFGATE_MATRIX_GLSLC}")
  endif()
  list(APPEND candidates "${PERFGATE_GLSLC}")
  if(DEFINED ENV{PERFGATE_SHADER_COMPILER_DIR})
    list(APPEND candidates "$ENV{PERFGATE_SHADER_COMPILER_DIR}/bin/glslc")
  endif()
  if(DEFINED ENV{HOME})
    list(APPEND candidates "$ENV{HOME}/.cache/perfgate/shader-compiler/bin/glslc")
  endif()
  _perfgate_glslc_knows_matrices("${PERFGATE_GLSLC}" system_ok system_version)
  foreach(glslc IN LISTS candidates)
    if(NOT EXISTS "${glslc}")
      continue()
    endif()
    _perfgate_glslc_knows_matrices("${glslc}" ok version)
    if(ok)
      message(STATUS "perfgate: tensor-core shaders (GL_KHR_cooperative_matrix, GL_NV_cooperative_matrix2) "
                     "compiled by ${glslc} (${version})")
      set(PERFGATE_MATRIX_GLSLC "${glslc}" CACHE FILEPATH
          "glslc for the shaders that enable GL_KHR_cooperative_matrix or GL_NV_cooperative_matrix2" FORCE)
      set(PERFGATE_MATRIX_GLSLC_MISSING "" CACHE INTERNAL "")
      return()
    endif()
  endforeach()
  string(CONCAT why "no glslc here compiles GL_KHR_cooperative_matrix and GL_NV_cooperative_matrix2 (the "
                    "system's has ${system_version}: ci/install-shader-compiler.sh installs Debian 13's)")
  message(STATUS "perfgate: ${why}: the tensor-core shaders that need them are left out of this build")
  set(PERFGATE_MATRIX_GLSLC "" CACHE FILEPATH
      "glslc for the shaders that enable GL_KHR_cooperative_matrix or GL_NV_cooperative_matrix2" FORCE)
  set(PERFGATE_MATRIX_GLSLC_MISSING "${why}" CACHE INTERNAL "")
endfunction()

# Whether a shader source enables an extension only the matrix compiler knows.
function(perfgate_shader_needs_matrix_glslc shader result_out)
  file(STRINGS "${shader}" lines REGEX "^[ \t]*#[ \t]*extension[ \t]+GL_(KHR_cooperative_matrix|NV_cooperative_matrix2)[ \t]*:")
  if(lines)
    set(${result_out} TRUE PARENT_SCOPE)
  else()
    set(${result_out} FALSE PARENT_SCOPE)
  endif()
endfunction()
