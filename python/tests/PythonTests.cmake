# The module's pytest files, one ctest test each (python_<file>), run by the interpreter the
# module was built for, from the build tree; and python_installed: `cmake --install` into a
# scratch prefix, then the installed package imported and used from there.
#
# Under LAYOUTCHECK_SANITIZE the interpreter is not instrumented, so the ASan runtime is
# preloaded (it must come first), and libstdc++ with it: python3 does not link it, and ASan finds
# the __cxa_throw it intercepts only in libraries loaded when it starts. Python allocates with
# malloc (PYTHONMALLOC) so ASan sees its buffers, and leak checking is off: the interpreter keeps
# its own memory until exit on purpose.
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import numpy, pytest"
                RESULT_VARIABLE _python_test_modules OUTPUT_QUIET ERROR_QUIET)
if(NOT _python_test_modules EQUAL 0)
  message(FATAL_ERROR
    "${Python3_EXECUTABLE} cannot import numpy and pytest, which the Python tests need: "
    "apt-get install python3-numpy python3-pytest, and point -DPython3_EXECUTABLE at the "
    "interpreter that has them (Debian's: /usr/bin/python3)")
endif()

set(_python_test_environment
  "PYTHONPATH=${PROJECT_BINARY_DIR}/python"
  "LAYOUTCHECK_CLI=$<TARGET_FILE:layoutcheck_cli>"
  "LAYOUTCHECK_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
  "PYTHONDONTWRITEBYTECODE=1")
if(LAYOUTCHECK_SANITIZE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE _asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so
                  OUTPUT_VARIABLE _cxx_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(_asan_runtime "${_asan_runtime} ${_cxx_runtime}")
  list(APPEND _python_test_environment
    "LD_PRELOAD=${_asan_runtime}"
    "PYTHONMALLOC=malloc"
    "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1:check_initialization_order=1"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()

file(GLOB _python_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/test_*.py)
foreach(_test IN LISTS _python_tests)
  get_filename_component(_name ${_test} NAME_WE)
  add_test(NAME python_${_name}
           COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider -rs ${_test}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # pytest exits 5 when every test of a file skipped (the GPU tests without torch or a GPU).
  set_tests_properties(python_${_name} PROPERTIES ENVIRONMENT "${_python_test_environment}"
                       TIMEOUT 600 SKIP_RETURN_CODE 5)
endforeach()

add_test(NAME python_installed
         COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR}
                 -DPREFIX=${PROJECT_BINARY_DIR}/python-install-test
                 -DPYTHON=${Python3_EXECUTABLE}
                 -DPACKAGE_DIR=${LAYOUTCHECK_PYTHON_INSTALL_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/tests/installed_import.cmake)
if(LAYOUTCHECK_SANITIZE)
  set_tests_properties(python_installed PROPERTIES ENVIRONMENT
    "LD_PRELOAD=${_asan_runtime};ASAN_OPTIONS=detect_leaks=0")
endif()
