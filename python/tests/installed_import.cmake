# ctest "python_installed" (PythonTests.cmake): installs the build into a scratch PREFIX and
# imports the installed package from there, outside the build tree: it must load the installed
# library (its RPATH), find the installed contracts and lint one.
#   cmake -DBUILD_DIR=... -DPREFIX=... -DPYTHON=... -DPACKAGE_DIR=lib/python3/dist-packages -P ...
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed: ${status}")
endif()

set(check [=[
import os, sys
import layoutcheck
prefix = os.path.realpath(sys.argv[1])
def inside(path):
    return os.path.realpath(path).startswith(prefix + os.sep)
assert inside(layoutcheck.__file__), layoutcheck.__file__
assert inside(layoutcheck.contracts_folder()), layoutcheck.contracts_folder()
libraries = {line.split()[-1] for line in open("/proc/self/maps") if "liblayoutcheck.so" in line}
assert libraries and all(inside(path) for path in libraries), libraries
report = layoutcheck.lint(os.path.join(layoutcheck.contracts_folder(), "gdn", "qwen3_5.ba.yaml"))
assert report["files"][0]["ok"], report
print("installed layoutcheck:", layoutcheck.__file__, "library:", *libraries)
]=])
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LAYOUTCHECK_CONTRACTS
                        PYTHONPATH=${PREFIX}/${PACKAGE_DIR}
                        ${PYTHON} -c "${check}" ${PREFIX}
                WORKING_DIRECTORY ${PREFIX} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the installed package does not work (exit ${status})")
endif()
