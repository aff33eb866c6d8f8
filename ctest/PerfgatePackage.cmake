# Installs the harness library, its headers, the perfgate command and the CMake package so that
# another project can `find_package(perfgate)` and register its own kernels.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Consumers link perfgate::harness, the name the build tree's alias has too.
set_target_properties(perfgate_harness PROPERTIES EXPORT_NAME harness)
install(TARGETS perfgate_harness EXPORT perfgateTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS perfgate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY harness/include/perfgate DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT perfgateTargets NAMESPACE perfgate:: FILE perfgateTargets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perfgate)
configure_package_config_file(ctest/perfgateConfig.cmake.in
  "${PROJECT_BINARY_DIR}/perfgateConfig.cmake"
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perfgate)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/perfgateConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/perfgateConfig.cmake"
              "${PROJECT_BINARY_DIR}/perfgateConfigVersion.cmake"
              ctest/PerfgateKernels.cmake ctest/PerfgateTests.cmake ctest/perfgate_summary.cmake
              ctest/perfgate_dashboard.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/perfgate)
