"""`wengert.test`: TensorFlow's `tf.test`: `TestCase` (unittest's, with sessions, `evaluate` and
the array assertions TensorFlow's tests use; tf1/test_case.py), `main`, `compute_gradient`
(theoretical and numerical Jacobians side by side; autodiff/numeric_jacobians.py), `Benchmark`
and the build and device queries (tf1/test_utils.py). `wengert.testing` is wengert's own
derivative checker, `check_grads`."""
from .autodiff.numeric_jacobians import compute_gradient
from .tf1.test_case import TestCase
from .tf1.test_utils import (Benchmark, benchmark_config, disable_with_predicate,
                             gpu_device_name, is_built_with_cuda, is_built_with_gpu_support,
                             is_built_with_rocm, is_built_with_xla, is_gpu_available, main,
                             with_eager_op_as_function)

__all__ = ["Benchmark", "TestCase", "benchmark_config", "compute_gradient",
           "disable_with_predicate", "gpu_device_name", "is_built_with_cuda",
           "is_built_with_gpu_support", "is_built_with_rocm", "is_built_with_xla",
           "is_gpu_available", "main", "with_eager_op_as_function"]
