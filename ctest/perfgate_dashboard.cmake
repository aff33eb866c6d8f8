# A CDash dashboard of perfgate's perf tests, for `ctest -S`: configures, builds, runs the perf
# tests and submits configure, build and test results to CDash. Each perf test prints its
# metrics as <CTestMeasurement type="numeric/double"> lines, which ctest turns into numeric
# measurements in Test.xml and CDash plots per test over time.
#
#   ctest -S ctest/perfgate_dashboard.cmake \
#         -DCDASH_URL="https://cdash.example.org/submit.php?project=perfgate" [options]
#
# Options (-DNAME=VALUE before or after -S):
#   CDASH_URL            where to submit (required): CDash's submit.php with ?project=NAME
#   MODEL                Experimental (default), Nightly or Continuous: the dashboard track
#   SITE                 the site name (default: this host's name)
#   BUILD_NAME           the build name (default: the machine id, `perfgate list --machine-id`,
#                        so runners with the same device share one row of history)
#   SOURCE_DIR           the project (default: the folder above this script)
#   BINARY_DIR           the build folder (default: SOURCE_DIR/build-dashboard)
#   PERFGATE_EXE         the project's perfgate command in BINARY_DIR (default: perfgate)
#   CONFIGURE_OPTIONS    extra cmake options, a ;-list (default: -DCMAKE_BUILD_TYPE=Release)
#   TESTS                a ctest -R regex to run only some perf tests (default: all)
#   PARALLEL             ctest -j for the tests (default 1)
#   RESOURCE_SPEC_FILE   a ctest resource spec (perfgate list --resource-spec): Vulkan perf
#                        tests then run one per GPU at a time, PARALLEL at once
# The script fails (after submitting) when the build fails, a perf test fails, or CDash refuses
# the submission, so a CI job running it gates like `ctest -L perf`.
#
# A perf test with no approved baseline yet skips (exit 77) after a brief measurement, and ctest
# keeps no measurement of a skipped test: its figures are added to Test.xml from its results file
# before the submission (perfgate_skipped_measurements.cmake), so a new machine class has plots
# before a person approves its baselines (docs/baselines.md).
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/perfgate_skipped_measurements.cmake")

if(NOT DEFINED MODEL)
  set(MODEL Experimental)
endif()
if(NOT MODEL MATCHES "^(Experimental|Nightly|Continuous)$")
  message(FATAL_ERROR "perfgate dashboard: MODEL=${MODEL}: expected Experimental, Nightly or Continuous")
endif()
if(NOT CDASH_URL)
  message(FATAL_ERROR "perfgate dashboard: set -DCDASH_URL=https://HOST/submit.php?project=NAME")
endif()
if(NOT SOURCE_DIR)
  get_filename_component(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
if(NOT EXISTS "${SOURCE_DIR}/CMakeLists.txt")
  message(FATAL_ERROR "perfgate dashboard: SOURCE_DIR=${SOURCE_DIR} has no CMakeLists.txt")
endif()
if(NOT BINARY_DIR)
  set(BINARY_DIR "${SOURCE_DIR}/build-dashboard")
endif()
if(NOT PERFGATE_EXE)
  set(PERFGATE_EXE perfgate)
endif()
if(NOT DEFINED CONFIGURE_OPTIONS)
  set(CONFIGURE_OPTIONS -DCMAKE_BUILD_TYPE=Release)
endif()
if(NOT PARALLEL)
  set(PARALLEL 1)
endif()

set(CTEST_SOURCE_DIRECTORY "${SOURCE_DIR}")
set(CTEST_BINARY_DIRECTORY "${BINARY_DIR}")
find_program(_perfgate_ninja ninja)
if(_perfgate_ninja)
  set(CTEST_CMAKE_GENERATOR Ninja)
else()
  set(CTEST_CMAKE_GENERATOR "Unix Makefiles")
endif()
set(CTEST_SUBMIT_URL "${CDASH_URL}")
if(SITE)
  set(CTEST_SITE "${SITE}")
else()
  cmake_host_system_information(RESULT CTEST_SITE QUERY HOSTNAME)
endif()

# The default build name is the machine id, which needs the perfgate command: build it first
# (the dashboard's own configure and build steps below then find little left to do).
if(BUILD_NAME)
  set(CTEST_BUILD_NAME "${BUILD_NAME}")
else()
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G "${CTEST_CMAKE_GENERATOR}"
                          ${CONFIGURE_OPTIONS} RESULT_VARIABLE rc OUTPUT_QUIET)
  if(rc EQUAL 0)
    execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY_DIR}" --target "${PERFGATE_EXE}"
                    RESULT_VARIABLE rc OUTPUT_QUIET)
  endif()
  if(rc EQUAL 0)
    execute_process(COMMAND "${BINARY_DIR}/${PERFGATE_EXE}" list --machine-id
                    OUTPUT_VARIABLE CTEST_BUILD_NAME OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  endif()
  if(NOT rc EQUAL 0 OR NOT CTEST_BUILD_NAME)
    set(CTEST_BUILD_NAME "perfgate-${CMAKE_SYSTEM_NAME}")
    message(WARNING "perfgate dashboard: no machine id (perfgate not built?); build name ${CTEST_BUILD_NAME}")
  endif()
endif()
message(STATUS "perfgate dashboard: ${MODEL} on site ${CTEST_SITE}, build ${CTEST_BUILD_NAME}")

ctest_start(${MODEL})
ctest_configure(OPTIONS "${CONFIGURE_OPTIONS}" RETURN_VALUE configure_rc)
ctest_build(NUMBER_ERRORS build_errors RETURN_VALUE build_rc)
set(test_args INCLUDE_LABEL "^perf$" PARALLEL_LEVEL ${PARALLEL} RETURN_VALUE test_rc)
if(TESTS)
  list(APPEND test_args INCLUDE "${TESTS}")
endif()
if(RESOURCE_SPEC_FILE)
  list(APPEND test_args RESOURCE_SPEC_FILE "${RESOURCE_SPEC_FILE}")
endif()
if(configure_rc EQUAL 0 AND build_rc EQUAL 0)
  ctest_test(${test_args})
  perfgate_add_skipped_measurements("${CTEST_BINARY_DIRECTORY}")
endif()
ctest_submit(RETRY_COUNT 3 RETRY_DELAY 5 RETURN_VALUE submit_rc)

if(NOT submit_rc EQUAL 0)
  message(FATAL_ERROR "perfgate dashboard: the submission to CDash failed")
elseif(NOT configure_rc EQUAL 0 OR NOT build_rc EQUAL 0 OR build_errors GREATER 0)
  message(FATAL_ERROR "perfgate dashboard: configure or build failed (submitted)")
elseif(NOT test_rc EQUAL 0)
  message(FATAL_ERROR "perfgate dashboard: perf tests failed (submitted)")
endif()
