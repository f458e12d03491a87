// The HIP runtime and hipRTC subset layoutcheck uses, mapped onto the CUDA 13 runtime and NVRTC.
// Include gpu_runtime.h, never this file directly: the vendor is chosen there.
//
// Only what the project calls is mapped; adding a call means adding it here, which keeps the
// NVIDIA port reviewable. Runtime-compiled modules use the CUDA runtime's library API
// (cudaLibrary_t / cudaKernel_t), so no driver-API library is linked.
#pragma once

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstddef>

// ---- errors ----
using hipError_t = cudaError_t;
inline constexpr hipError_t hipSuccess = cudaSuccess;
inline constexpr hipError_t hipErrorNoDevice = cudaErrorNoDevice;
inline constexpr hipError_t hipErrorInsufficientDriver = cudaErrorInsufficientDriver;
inline const char* hipGetErrorString(hipError_t error) {
  return cudaGetErrorString(error);
}
inline const char* hipGetErrorName(hipError_t error) {
  return cudaGetErrorName(error);
}
inline hipError_t hipGetLastError() {
  return cudaGetLastError();
}
inline hipError_t hipPeekAtLastError() {
  return cudaPeekAtLastError();
}

// ---- devices ----
using hipDeviceProp_t = cudaDeviceProp;
inline hipError_t hipGetDeviceCount(int* count) {
  return cudaGetDeviceCount(count);
}
inline hipError_t hipGetDevice(int* device) {
  return cudaGetDevice(device);
}
inline hipError_t hipSetDevice(int device) {
  return cudaSetDevice(device);
}
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* properties, int device) {
  return cudaGetDeviceProperties(properties, device);
}
inline hipError_t hipDeviceSynchronize() {
  return cudaDeviceSynchronize();
}
inline hipError_t hipDriverGetVersion(int* version) {
  return cudaDriverGetVersion(version);
}
inline hipError_t hipRuntimeGetVersion(int* version) {
  return cudaRuntimeGetVersion(version);
}

// ---- memory ----
using hipMemcpyKind = cudaMemcpyKind;
inline constexpr hipMemcpyKind hipMemcpyHostToDevice = cudaMemcpyHostToDevice;
inline constexpr hipMemcpyKind hipMemcpyDeviceToHost = cudaMemcpyDeviceToHost;
inline constexpr hipMemcpyKind hipMemcpyDeviceToDevice = cudaMemcpyDeviceToDevice;
inline hipError_t hipMalloc(void** pointer, std::size_t bytes) {
  return cudaMalloc(pointer, bytes);
}
inline hipError_t hipFree(void* pointer) {
  return cudaFree(pointer);
}
inline hipError_t hipMemcpy(void* destination, const void* source, std::size_t bytes,
                            hipMemcpyKind kind) {
  return cudaMemcpy(destination, source, bytes, kind);
}
inline hipError_t hipMemset(void* destination, int value, std::size_t bytes) {
  return cudaMemset(destination, value, bytes);
}
inline hipError_t hipMemGetInfo(std::size_t* free, std::size_t* total) {
  return cudaMemGetInfo(free, total);
}

// ---- streams, events, graphs ----
using hipStream_t = cudaStream_t;
using hipEvent_t = cudaEvent_t;
using hipGraph_t = cudaGraph_t;
using hipGraphExec_t = cudaGraphExec_t;
using hipGraphNode_t = cudaGraphNode_t;
using hipStreamCaptureMode = cudaStreamCaptureMode;
inline constexpr unsigned int hipStreamDefault = cudaStreamDefault;
inline constexpr unsigned int hipStreamNonBlocking = cudaStreamNonBlocking;
inline constexpr hipStreamCaptureMode hipStreamCaptureModeThreadLocal =
    cudaStreamCaptureModeThreadLocal;
inline hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  return cudaStreamCreateWithFlags(stream, flags);
}
inline hipError_t hipStreamDestroy(hipStream_t stream) {
  return cudaStreamDestroy(stream);
}
inline hipError_t hipStreamSynchronize(hipStream_t stream) {
  return cudaStreamSynchronize(stream);
}
inline hipError_t hipMemcpyAsync(void* destination, const void* source, std::size_t bytes,
                                 hipMemcpyKind kind, hipStream_t stream) {
  return cudaMemcpyAsync(destination, source, bytes, kind, stream);
}
inline hipError_t hipMemsetAsync(void* destination, int value, std::size_t bytes,
                                 hipStream_t stream) {
  return cudaMemsetAsync(destination, value, bytes, stream);
}
inline hipError_t hipEventCreate(hipEvent_t* event) {
  return cudaEventCreate(event);
}
inline hipError_t hipEventDestroy(hipEvent_t event) {
  return cudaEventDestroy(event);
}
inline hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  return cudaEventRecord(event, stream);
}
inline hipError_t hipEventSynchronize(hipEvent_t event) {
  return cudaEventSynchronize(event);
}
inline hipError_t hipEventElapsedTime(float* milliseconds, hipEvent_t start, hipEvent_t stop) {
  return cudaEventElapsedTime(milliseconds, start, stop);
}
inline hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  return cudaStreamBeginCapture(stream, mode);
}
inline hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph) {
  return cudaStreamEndCapture(stream, graph);
}
// HIP keeps the older five-argument form (error node and log buffer); CUDA 13 takes flags.
inline hipError_t hipGraphInstantiate(hipGraphExec_t* executable, hipGraph_t graph,
                                      hipGraphNode_t* /*error_node*/, char* /*log*/,
                                      std::size_t /*log_size*/) {
  return cudaGraphInstantiate(executable, graph, 0);
}
inline hipError_t hipGraphLaunch(hipGraphExec_t executable, hipStream_t stream) {
  return cudaGraphLaunch(executable, stream);
}
inline hipError_t hipGraphExecDestroy(hipGraphExec_t executable) {
  return cudaGraphExecDestroy(executable);
}
inline hipError_t hipGraphDestroy(hipGraph_t graph) {
  return cudaGraphDestroy(graph);
}

// ---- modules built at run time ----
using hipModule_t = cudaLibrary_t;
using hipFunction_t = cudaKernel_t;
inline hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  return cudaLibraryLoadData(module, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
}
inline hipError_t hipModuleUnload(hipModule_t module) {
  return cudaLibraryUnload(module);
}
inline hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module,
                                       const char* name) {
  return cudaLibraryGetKernel(function, module, name);
}
// HIP's (f, grid xyz, block xyz, shared, stream, params, extra); CUDA's runtime launches a
// cudaKernel_t passed as the function pointer. "extra" packing is not used by the project.
inline hipError_t hipModuleLaunchKernel(hipFunction_t function, unsigned int grid_x,
                                        unsigned int grid_y, unsigned int grid_z,
                                        unsigned int block_x, unsigned int block_y,
                                        unsigned int block_z, unsigned int shared_bytes,
                                        hipStream_t stream, void** params, void** extra) {
  if (extra != nullptr) return cudaErrorInvalidValue;
  return cudaLaunchKernel(reinterpret_cast<const void*>(function), dim3(grid_x, grid_y, grid_z),
                          dim3(block_x, block_y, block_z), params, shared_bytes, stream);
}

// ---- hipRTC on NVRTC ----
using hiprtcResult = nvrtcResult;
using hiprtcProgram = nvrtcProgram;
inline constexpr hiprtcResult HIPRTC_SUCCESS = NVRTC_SUCCESS;
inline const char* hiprtcGetErrorString(hiprtcResult result) {
  return nvrtcGetErrorString(result);
}
inline hiprtcResult hiprtcCreateProgram(hiprtcProgram* program, const char* source,
                                        const char* name, int header_count,
                                        const char* const* headers,
                                        const char* const* include_names) {
  return nvrtcCreateProgram(program, source, name, header_count, headers, include_names);
}
inline hiprtcResult hiprtcDestroyProgram(hiprtcProgram* program) {
  return nvrtcDestroyProgram(program);
}
inline hiprtcResult hiprtcCompileProgram(hiprtcProgram program, int option_count,
                                         const char* const* options) {
  return nvrtcCompileProgram(program, option_count, options);
}
inline hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram program, std::size_t* size) {
  return nvrtcGetProgramLogSize(program, size);
}
inline hiprtcResult hiprtcGetProgramLog(hiprtcProgram program, char* log) {
  return nvrtcGetProgramLog(program, log);
}
inline hiprtcResult hiprtcAddNameExpression(hiprtcProgram program, const char* expression) {
  return nvrtcAddNameExpression(program, expression);
}
inline hiprtcResult hiprtcGetLoweredName(hiprtcProgram program, const char* expression,
                                         const char** lowered) {
  return nvrtcGetLoweredName(program, expression, lowered);
}
// The project compiles for a real architecture (-arch=sm_XY), so the code object is a CUBIN.
inline hiprtcResult hiprtcGetCodeSize(hiprtcProgram program, std::size_t* size) {
  return nvrtcGetCUBINSize(program, size);
}
inline hiprtcResult hiprtcGetCode(hiprtcProgram program, char* code) {
  return nvrtcGetCUBIN(program, code);
}
