# ctest "consumer_project": installs this build into a scratch prefix, then configures, builds and
# runs tests/consumer against that prefix (RunConsumer.cmake). It proves the installed package is
# complete: headers without yaml-cpp/Eigen, a relocatable package config, the library, the CLI and
# the contracts. Included from tests/CMakeLists.txt.
set(_consumer_cxx_flags "")
if(LAYOUTCHECK_SANITIZE)
  # The library carries the sanitizer runtimes; the consumer must be built with them too (ASan
  # insists on coming first in the link).
  set(_consumer_cxx_flags "-fsanitize=address,undefined -fno-omit-frame-pointer")
endif()

add_test(NAME consumer_project
         COMMAND ${CMAKE_COMMAND}
                 -DLAYOUTCHECK_BUILD_DIR=${PROJECT_BINARY_DIR}
                 -DCONSUMER_SOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}
                 -DCONSUMER_WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/consumer_project
                 -DCONSUMER_GENERATOR=${CMAKE_GENERATOR}
                 -DCONSUMER_CXX_COMPILER=${CMAKE_CXX_COMPILER}
                 -DCONSUMER_CXX_FLAGS=${_consumer_cxx_flags}
                 -DCONSUMER_BUILD_TYPE=${CMAKE_BUILD_TYPE}
                 -DEXPECTED_VERSION=${PROJECT_VERSION}
                 -P ${CMAKE_CURRENT_LIST_DIR}/RunConsumer.cmake)
# It compiles a project: give it time, and keep it out of the way of the quick unit tests.
set_tests_properties(consumer_project PROPERTIES TIMEOUT 900 LABELS "consumer;install")
