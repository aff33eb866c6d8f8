# perfgate_discover_tests(<perfgate executable target> [LABELS <label>...] [ARGS <check arg>...])
#
# Registers one CTest test per case of the executable at test time (like gtest_discover_tests):
# ctest asks `<exe> list --ctest` for the cases, so a new kernel adds its tests with no CMake
# edit. Each test runs `<exe> check <case id> ARGS...`; exit 77 (no device, no baseline) is a
# skip. Every test is labelled perf, its kernel, its backend and the LABELS given.
#
# CPU perf tests run alone (RUN_SERIAL): they drive every core, so nothing may overlap them; so do
# Vulkan perf tests on a CPU implementation such as llvmpipe (`list --ctest` says which a test
# needs). Vulkan perf tests ask CTest for one GPU (RESOURCE_GROUPS gpus:1): under
# `ctest -j N --resource-spec-file FILE` (FILE from `perfgate list --resource-spec`) N GPUs run
# N cases at once, never two on one GPU, each on the device ctest names in
# CTEST_RESOURCE_GROUP_0_GPUS. Without a spec file ctest ignores the groups, and `perfgate
# check` takes a lock on the device, so Vulkan checks still take turns.
include_guard(GLOBAL)
set(_perfgate_tests_dir "${CMAKE_CURRENT_LIST_DIR}")

function(perfgate_discover_tests target)
  cmake_parse_arguments(ARG "" "" "ARGS;LABELS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "perfgate_discover_tests(${target}): unexpected argument '${ARG_UNPARSED_ARGUMENTS}' (keywords: LABELS ARGS)")
  endif()
  set(extra_labels "")
  if(ARG_LABELS)
    set(extra_labels ";${ARG_LABELS}")
  endif()
  set(results_dir "${CMAKE_CURRENT_BINARY_DIR}/perfgate-results")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_perf_include.cmake")
  file(GENERATE OUTPUT "${include_file}" CONTENT
"execute_process(COMMAND \"$<TARGET_FILE:${target}>\" list --ctest ${ARG_ARGS}
                OUTPUT_VARIABLE perfgate_cases RESULT_VARIABLE perfgate_rc)
if(NOT perfgate_rc EQUAL 0)
  message(WARNING \"perfgate: could not list cases of $<TARGET_FILE:${target}> (exit \${perfgate_rc})\")
  add_test(perfgate_list_failed \"$<TARGET_FILE:${target}>\" list --ctest)
  return()
endif()
string(REPLACE \"\\n\" \";\" perfgate_lines \"\${perfgate_cases}\")
foreach(line IN LISTS perfgate_lines)
  if(line STREQUAL \"\")
    continue()
  endif()
  # Each line: <case id> <kernel> <backend> <needs: gpu or machine>
  string(REPLACE \" \" \";\" fields \"\${line}\")
  list(GET fields 0 case)
  list(GET fields 1 kernel)
  list(GET fields 2 backend)
  list(GET fields 3 needs)
  add_test(\"\${case}\" \"$<TARGET_FILE:${target}>\" check \"\${case}\" --results-dir \"${results_dir}\" ${ARG_ARGS})
  set_tests_properties(\"\${case}\" PROPERTIES
    LABELS \"perf;\${kernel};\${backend}${extra_labels}\"
    FIXTURES_REQUIRED ${target}_perf_run
    SKIP_RETURN_CODE 77
    TIMEOUT 600)
  if(backend STREQUAL \"vulkan\")
    set_tests_properties(\"\${case}\" PROPERTIES RESOURCE_GROUPS \"gpus:1\")
  endif()
  if(NOT needs STREQUAL \"gpu\")
    set_tests_properties(\"\${case}\" PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")

  # One run = one ctest invocation: the setup clears the results folder, the cleanup merges it
  # into ${target}-results.json and posts one alert (perfgate notify) for the whole run.
  add_test(NAME ${target}_perf_setup COMMAND "${CMAKE_COMMAND}" -E rm -rf "${results_dir}")
  set_tests_properties(${target}_perf_setup PROPERTIES FIXTURES_SETUP ${target}_perf_run LABELS "perf;${ARG_LABELS}")
  add_test(NAME ${target}_perf_summary COMMAND "${CMAKE_COMMAND}"
           -DPERFGATE=$<TARGET_FILE:${target}> -DRESULTS_DIR=${results_dir}
           -DOUT=${CMAKE_CURRENT_BINARY_DIR}/${target}-results.json
           -P "${_perfgate_tests_dir}/perfgate_summary.cmake")
  set_tests_properties(${target}_perf_summary PROPERTIES FIXTURES_CLEANUP ${target}_perf_run LABELS "perf;${ARG_LABELS}")
endfunction()
