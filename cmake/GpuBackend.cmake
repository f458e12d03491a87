# Chooses the GPU backend in one place. "auto" takes what the machine has: CUDA when nvcc is
# found, else HIP when hipcc is the C++ compiler or a ROCm/DTK install is present, else none
# (CPU only: the contract core, the CPU probes and the reports still build and run).
set(_backend "${LAYOUTCHECK_GPU_BACKEND}")
if(_backend STREQUAL "auto")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(_backend cuda)
  elseif(CMAKE_CXX_COMPILER MATCHES "hipcc$")
    set(_backend hip)
  else()
    set(_backend none)
    message(STATUS "layoutcheck: no GPU toolchain found (nvcc, or hipcc as the C++ compiler); "
                   "building CPU only")
  endif()
endif()

if(_backend STREQUAL "cuda")
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "${LAYOUTCHECK_CUDA_ARCHS}")
  endif()
  enable_language(CUDA)
  # CMake before 3.26 does not know that nvcc 12+ accepts -std=c++20; tell it.
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION AND
     CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_EXTENSIONS OFF)
  find_package(CUDAToolkit REQUIRED)
elseif(_backend STREQUAL "hip")
  if(NOT CMAKE_CXX_COMPILER MATCHES "hipcc$")
    message(FATAL_ERROR "layoutcheck: the hip backend builds with hipcc as the C++ compiler: "
                        "configure with -DCMAKE_CXX_COMPILER=hipcc")
  endif()
  # hipcc compiles every .cpp as HIP for some default GPU; the host code is plain C++ (faster, and
  # clang 15's device pass crashes on some of it). The .hip files switch back with -xhip.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-xc++>)
  set(AMDGPU_TARGETS "${LAYOUTCHECK_HIP_ARCHS}" CACHE STRING "" FORCE)
  set(GPU_TARGETS "${LAYOUTCHECK_HIP_ARCHS}" CACHE STRING "" FORCE)
  find_package(hip REQUIRED)
elseif(NOT _backend STREQUAL "none")
  message(FATAL_ERROR "LAYOUTCHECK_GPU_BACKEND must be auto, none, hip or cuda (got '${_backend}')")
endif()
set(LAYOUTCHECK_BACKEND "${_backend}")
message(STATUS "layoutcheck: GPU backend = ${LAYOUTCHECK_BACKEND}")

# Adds GPU sources (.hip) to a target, compiled by whichever backend was chosen.
# With hip, each .hip file is compiled as HIP ("-x hip": CMake itself passes "-x c++" for an
# unknown extension, and the later flag wins) for every architecture in LAYOUTCHECK_HIP_ARCHS;
# host-only .cpp files of the same target stay plain C++.
function(layoutcheck_gpu_sources target)
  set(_hip_options "-xhip")
  foreach(arch IN LISTS LAYOUTCHECK_HIP_ARCHS)
    list(APPEND _hip_options "--offload-arch=${arch}")
  endforeach()
  foreach(src IN LISTS ARGN)
    # Each device file is compiled on its own (its own options, its own language), whatever the
    # target's unity build batches.
    set_source_files_properties(${src} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    if(LAYOUTCHECK_BACKEND STREQUAL "cuda")
      set_source_files_properties(${src} PROPERTIES LANGUAGE CUDA)
    else()
      set_source_files_properties(${src} PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "${_hip_options}")
    endif()
  endforeach()
  target_sources(${target} PRIVATE ${ARGN})
  if(LAYOUTCHECK_BACKEND STREQUAL "hip")
    # hipcc links the device code objects; it needs the architectures at link time too.
    foreach(arch IN LISTS LAYOUTCHECK_HIP_ARCHS)
      target_link_options(${target} PRIVATE "--offload-arch=${arch}")
    endforeach()
  endif()
endfunction()
