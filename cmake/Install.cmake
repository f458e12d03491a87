# cmake --install: the library, its headers, the CLI, the shipped contracts and a package config,
# so another project does
#   find_package(layoutcheck REQUIRED)
#   target_link_libraries(my_tests PRIVATE layoutcheck::layoutcheck)
# and finds the installed contracts in ${layoutcheck_CONTRACTS_DIR}. tests/consumer is such a
# project; the ctest test "consumer_project" installs this build and builds it against the result.
include(CMakePackageConfigHelpers)

set(LAYOUTCHECK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/layoutcheck)
set(LAYOUTCHECK_INSTALL_CONTRACTSDIR ${CMAKE_INSTALL_DATADIR}/layoutcheck/contracts)

set(_layoutcheck_install_targets layoutcheck)
if(TARGET layoutcheck_gpu)
  list(APPEND _layoutcheck_install_targets layoutcheck_gpu)
endif()
install(TARGETS ${_layoutcheck_install_targets} EXPORT layoutcheckTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The CLI is exported too (layoutcheck::cli), so a consumer's tests can run `layoutcheck diff` on
# its own contracts. $ORIGIN keeps the installed tree relocatable: the binary finds the library
# next door wherever the prefix ends up.
set_target_properties(layoutcheck_cli PROPERTIES EXPORT_NAME cli
                      INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS layoutcheck_cli EXPORT layoutcheckTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The GPU headers (gpu/, gpu_bench/ and the runtime mapping in platform/) compile only with a GPU
# backend: a CPU-only install leaves them out rather than ship headers nobody can include. A GPU
# install adds the kernels' ABI they include ("kernels/gdn/gdn_kernels.h", from the include root).
set(_layoutcheck_gpu_only_headers)
if(NOT TARGET layoutcheck_gpu)
  set(_layoutcheck_gpu_only_headers PATTERN "gpu" EXCLUDE PATTERN "gpu_bench" EXCLUDE
      PATTERN "gpu_runtime.h" EXCLUDE PATTERN "hip_on_cuda.h" EXCLUDE PATTERN "wave.h" EXCLUDE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/layoutcheck ${PROJECT_SOURCE_DIR}/src/cases
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" ${_layoutcheck_gpu_only_headers})
if(TARGET layoutcheck_gpu)
  install(FILES ${PROJECT_SOURCE_DIR}/kernels/launch_order.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kernels)
  install(FILES ${PROJECT_SOURCE_DIR}/kernels/gdn/gdn_kernels.h
                ${PROJECT_SOURCE_DIR}/kernels/gdn/gdn_abi.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kernels/gdn)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/contracts/ DESTINATION ${LAYOUTCHECK_INSTALL_CONTRACTSDIR})

install(EXPORT layoutcheckTargets NAMESPACE layoutcheck:: DESTINATION ${LAYOUTCHECK_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/layoutcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/layoutcheckConfig.cmake
  INSTALL_DESTINATION ${LAYOUTCHECK_INSTALL_CMAKEDIR}
  PATH_VARS LAYOUTCHECK_INSTALL_CONTRACTSDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/layoutcheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/layoutcheckConfig.cmake
              ${PROJECT_BINARY_DIR}/layoutcheckConfigVersion.cmake
        DESTINATION ${LAYOUTCHECK_INSTALL_CMAKEDIR})
