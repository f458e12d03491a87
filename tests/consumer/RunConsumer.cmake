# cmake -P script behind the ctest test "consumer_project" (see ConsumerTest.cmake):
#   1. cmake --install the layoutcheck build into a fresh scratch prefix;
#   2. run the installed CLI (proves its RPATH finds the installed library);
#   3. configure tests/consumer with only that prefix on CMAKE_PREFIX_PATH, build it, run it.
foreach(var LAYOUTCHECK_BUILD_DIR CONSUMER_SOURCE_DIR CONSUMER_WORK_DIR CONSUMER_GENERATOR
            CONSUMER_CXX_COMPILER EXPECTED_VERSION)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "RunConsumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix ${CONSUMER_WORK_DIR}/prefix)
set(build ${CONSUMER_WORK_DIR}/build)
file(REMOVE_RECURSE ${CONSUMER_WORK_DIR})

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc COMMAND_ECHO STDOUT)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer_project: ${what} failed (${rc})")
  endif()
endfunction()

run_step("installing the package" ${CMAKE_COMMAND} --install ${LAYOUTCHECK_BUILD_DIR}
         --prefix ${prefix})

execute_process(COMMAND ${prefix}/bin/layoutcheck --version RESULT_VARIABLE rc
                OUTPUT_VARIABLE version_text ERROR_VARIABLE version_text)
if(NOT rc EQUAL 0 OR NOT version_text MATCHES "${EXPECTED_VERSION}")
  message(FATAL_ERROR "consumer_project: the installed CLI did not run (${rc}): ${version_text}")
endif()
message(STATUS "installed CLI: ${version_text}")

set(configure_args -S ${CONSUMER_SOURCE_DIR} -B ${build} -G ${CONSUMER_GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_CXX_COMPILER=${CONSUMER_CXX_COMPILER}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(CONSUMER_BUILD_TYPE)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${CONSUMER_BUILD_TYPE})
endif()
if(CONSUMER_CXX_FLAGS)
  list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${CONSUMER_CXX_FLAGS}")
endif()
run_step("configuring tests/consumer" ${CMAKE_COMMAND} ${configure_args})
run_step("building tests/consumer" ${CMAKE_COMMAND} --build ${build})
run_step("running the consumer's tests" ${build}/layoutcheck_consumer_tests)
