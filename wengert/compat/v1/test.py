"""`wengert.compat.v1.test`: TensorFlow 1's `tf.test`: TestCase and the build and device
queries of `tf.test`, `get_temp_dir`, `StubOutForTesting`, `mock` (unittest.mock), and the graph
gradient check `compute_gradient(x, x_shape, y, y_shape)` / `compute_gradient_error`
(tf1/graph_gradient_check.py)."""
from unittest import mock

from ...tf1.graph_gradient_check import compute_gradient, compute_gradient_error
from ...tf1.test_case import TestCase
from ...tf1.test_utils import (Benchmark, StubOutForTesting, benchmark_config,
                               disable_with_predicate, get_temp_dir, gpu_device_name,
                               is_built_with_cuda, is_built_with_gpu_support, is_built_with_rocm,
                               is_built_with_xla, is_gpu_available, main,
                               with_eager_op_as_function)

__all__ = ["Benchmark", "StubOutForTesting", "TestCase", "benchmark_config", "compute_gradient",
           "compute_gradient_error", "disable_with_predicate", "get_temp_dir",
           "gpu_device_name", "is_built_with_cuda", "is_built_with_gpu_support",
           "is_built_with_rocm", "is_built_with_xla", "is_gpu_available", "main", "mock",
           "with_eager_op_as_function"]
