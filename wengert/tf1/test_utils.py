"""The functions of `tf.test` around TestCase (test_case.py): `main` (run the module's tests),
`get_temp_dir` (one temporary directory per process), the build and device queries (wengert
is built without CUDA, ROCm or XLA and runs on the CPU: `is_gpu_available()` is False and
`gpu_device_name()` empty), `benchmark_config` and `Benchmark` (timing a callable or an op in a
session, reported as TensorFlow's benchmarks report: iterations, wall time, extras),
`disable_with_predicate` and `with_eager_op_as_function` (decorators) and TF 1's
`StubOutForTesting` (replace attributes of objects or modules for a test, restore them all)."""
import functools
import inspect
import sys
import tempfile
import time
import unittest

from ..framework.protos.session_config import ConfigProto

__all__ = ["Benchmark", "StubOutForTesting", "benchmark_config", "disable_with_predicate",
           "get_temp_dir", "gpu_device_name", "is_built_with_cuda", "is_built_with_gpu_support",
           "is_built_with_rocm", "is_built_with_xla", "is_gpu_available", "main",
           "with_eager_op_as_function"]


class _TempDir:
    path = None


def main(argv=None):
    """Run the tests of the __main__ module (unittest's runner; argv as sys.argv)."""
    return unittest.main(module="__main__", argv=argv if argv is not None else sys.argv)


def get_temp_dir():
    """A temporary directory, the same for the whole process."""
    if _TempDir.path is None:
        _TempDir.path = tempfile.mkdtemp()
    return _TempDir.path


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """False: wengert computes on the CPU (whatever GPU kind or capability is asked for)."""
    if min_cuda_compute_capability is not None and len(min_cuda_compute_capability) != 2:
        raise ValueError("min_cuda_compute_capability must be a (major, minor) pair, got "
                         f"{min_cuda_compute_capability!r}.")
    if not isinstance(cuda_only, bool):
        raise TypeError(f"is_gpu_available: cuda_only must be a bool, got {cuda_only!r}.")
    return False


def gpu_device_name():
    """The name of a GPU device: none here."""
    return ""


def is_built_with_cuda():
    return False


def is_built_with_rocm():
    return False


def is_built_with_gpu_support():
    return False


def is_built_with_xla():
    return False


def benchmark_config():
    """The ConfigProto TensorFlow's benchmarks run sessions with."""
    return ConfigProto()


def disable_with_predicate(pred, skip_message):
    """Skip the decorated test when pred() is true."""
    def decorator(func):
        @functools.wraps(func)
        def wrapper(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        return wrapper
    return decorator


def with_eager_op_as_function(cls=None, only_as_function=False):
    """Run the test class's tests with ops as functions too: the same runs here."""
    if cls is None:
        return functools.partial(with_eager_op_as_function, only_as_function=only_as_function)
    return cls


class Benchmark:
    """Base class of benchmarks: `report_benchmark` records one result, `run_op_benchmark`
    times an op in a session."""

    def __init__(self):
        self.reports = []

    def evaluate(self, tensors):
        """NumPy values of eager tensors (a tensor or a list of them)."""
        if isinstance(tensors, (list, tuple)):
            return [self.evaluate(t) for t in tensors]
        return tensors.numpy() if hasattr(tensors, "numpy") else tensors

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None,
                         extras=None, name=None, metrics=None):
        """Record (and print) one benchmark result."""
        name = name or _caller_name()
        entry = {"name": name, "iters": iters, "cpu_time": cpu_time, "wall_time": wall_time,
                 "throughput": throughput, "extras": dict(extras or {}),
                 "metrics": list(metrics or [])}
        self.reports.append(entry)
        print(f"benchmark {name}: iters={iters} wall_time={wall_time}")
        return entry

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10,
                         store_trace=False, store_memory_usage=True, name=None, extras=None,
                         mbs=0):
        """Run op_or_tensor burn_iters times, then time min_iters runs; reports the median
        wall time per run."""
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        times = []
        for _ in range(min_iters):
            start = time.perf_counter()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            times.append(time.perf_counter() - start)
        median = sorted(times)[len(times) // 2]
        extras = dict(extras or {})
        if mbs:
            extras["throughput_mb_per_sec"] = mbs / median
        if store_trace or not store_memory_usage:
            extras["trace"] = "not recorded"
        return self.report_benchmark(iters=min_iters, wall_time=median, extras=extras,
                                     name=name)


def _caller_name():
    frame = inspect.currentframe().f_back.f_back
    return frame.f_code.co_name if frame is not None else "benchmark"


class StubOutForTesting:
    """Replace attributes for a test and put them back: `Set(obj, name, value)`,
    `SmartSet` (the same, restored by SmartUnsetAll), `UnsetAll`, `CleanUp`."""

    def __init__(self):
        self.cache, self.stubs = [], []

    def Set(self, parent, child_name, new_child):  # noqa: N802 (TensorFlow's names)
        """parent.child_name = new_child, remembered for UnsetAll."""
        self.cache.append((parent, getattr(parent, child_name), child_name))
        setattr(parent, child_name, new_child)

    def SmartSet(self, obj, attr_name, new_attr):  # noqa: N802
        """obj.attr_name = new_attr, remembered for SmartUnsetAll."""
        self.stubs.append((obj, attr_name, getattr(obj, attr_name)))
        setattr(obj, attr_name, new_attr)

    def SmartUnsetAll(self):  # noqa: N802
        """Undo every SmartSet, last first."""
        for obj, attr_name, old in reversed(self.stubs):
            setattr(obj, attr_name, old)
        self.stubs = []

    def UnsetAll(self):  # noqa: N802
        """Undo every Set, last first."""
        for parent, old, child_name in reversed(self.cache):
            setattr(parent, child_name, old)
        self.cache = []

    def CleanUp(self):  # noqa: N802
        """Undo everything."""
        self.SmartUnsetAll()
        self.UnsetAll()
