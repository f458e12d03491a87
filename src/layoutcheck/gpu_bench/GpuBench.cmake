# The GPU half of `layoutcheck bench`: the timing harness and the orchestration of gates
# and timing, compiled into layoutcheck_gpu. Host C++ only (the kernels are in kernels/).
# Included from the top-level CMakeLists.txt after kernels/ defines layoutcheck_gpu.
file(GLOB LAYOUTCHECK_GPU_BENCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
target_sources(layoutcheck_gpu PRIVATE ${LAYOUTCHECK_GPU_BENCH_SOURCES})
