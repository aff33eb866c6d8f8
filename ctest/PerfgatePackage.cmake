# Installs the harness library, its headers, the peak kernels, the perfgate command, the default
# thresholds and the CMake package, so that another project can `find_package(perfgate)` and
# build its own perfgate command with no file copied out of perfgate's source.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Consumers link perfgate::harness, the name the build tree's alias has too.
set_target_properties(perfgate_harness PROPERTIES EXPORT_NAME harness)
install(TARGETS perfgate_harness perfgate_kernel_options perfgate_peak_kernels EXPORT perfgateTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/perfgate/peak_kernels)
install(TARGETS perfgate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY harness/include/perfgate DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The shipped thresholds: a project's perfgate command reads them when the project has no
# thresholds/ folder of its own.
set(PERFGATE_INSTALL_THRESHOLDS_DIR ${CMAKE_INSTALL_DATADIR}/perfgate/thresholds)
install(DIRECTORY thresholds/ DESTINATION ${PERFGATE_INSTALL_THRESHOLDS_DIR} FILES_MATCHING PATTERN "*.yaml")
install(EXPORT perfgateTargets NAMESPACE perfgate:: FILE perfgateTargets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perfgate)
configure_package_config_file(ctest/perfgateConfig.cmake.in
  "${PROJECT_BINARY_DIR}/perfgateConfig.cmake"
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perfgate
  PATH_VARS PERFGATE_INSTALL_THRESHOLDS_DIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/perfgateConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/perfgateConfig.cmake"
              "${PROJECT_BINARY_DIR}/perfgateConfigVersion.cmake"
              ctest/PerfgateKernels.cmake ctest/PerfgateShaderCompiler.cmake ctest/matrix_glslc_probe.comp ctest/bfloat16_glslc_probe.comp ctest/PerfgateTests.cmake ctest/perfgate_summary.cmake
              ctest/perfgate_dashboard.cmake ctest/perfgate_skipped_measurements.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perfgate)
