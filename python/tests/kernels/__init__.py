"""Kernels written in Python for the module's tests: NumPy on the CPU, Triton on a GPU."""
