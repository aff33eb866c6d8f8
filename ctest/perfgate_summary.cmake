# Run by the CTest fixture cleanup test after the perf tests: merges the per-case results into
# one run, writes results.json and posts one alert for the whole ctest run. A webhook outage or
# a missing webhook never changes the tests' outcome, so this script always succeeds.
#   cmake -DPERFGATE=<exe> -DRESULTS_DIR=<dir> -DOUT=<results.json> -P perfgate_summary.cmake
if(NOT EXISTS "${RESULTS_DIR}")
  message(STATUS "perfgate: no perf results in this ctest run")
  return()
endif()
file(GLOB results "${RESULTS_DIR}/*.json")
if(NOT results)
  message(STATUS "perfgate: no perf results in this ctest run")
  return()
endif()
execute_process(COMMAND "${PERFGATE}" report "${RESULTS_DIR}" --json "${OUT}" RESULT_VARIABLE rc)
execute_process(COMMAND "${PERFGATE}" notify "${RESULTS_DIR}" RESULT_VARIABLE rc)
if(rc EQUAL 3)
  message(STATUS "perfgate: alert queued in the outbox; the next `${PERFGATE} notify` delivers it")
elseif(NOT rc EQUAL 0)
  message(STATUS "perfgate: notify exited ${rc} (see above); test verdicts are unaffected")
endif()
