# cmake --install: the library, its headers and a package config, so another project does
#   find_package(layoutcheck) and links layoutcheck::layoutcheck.
include(CMakePackageConfigHelpers)

set(_targets layoutcheck)
if(TARGET layoutcheck_gpu)
  list(APPEND _targets layoutcheck_gpu)
endif()
install(TARGETS ${_targets} EXPORT layoutcheckTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS layoutcheck_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/layoutcheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/contracts/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/layoutcheck/contracts)

set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/layoutcheck)
install(EXPORT layoutcheckTargets NAMESPACE layoutcheck:: DESTINATION ${_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/layoutcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/layoutcheckConfig.cmake INSTALL_DESTINATION ${_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/layoutcheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/layoutcheckConfig.cmake
              ${PROJECT_BINARY_DIR}/layoutcheckConfigVersion.cmake DESTINATION ${_cmake_dir})
