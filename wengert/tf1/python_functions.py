"""`tf.compat.v1.py_func`: TensorFlow 1's name for calling Python on tensors' values, which
TensorFlow 2 calls `numpy_function`: `func` receives NumPy arrays and returns arrays of the
dtypes `Tout`; like TensorFlow's, it has no gradient."""
from ..ops.io.script import numpy_function

__all__ = ["py_func"]


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803 (TensorFlow's name)
    """`func(*arrays)` run when the op runs, its results as tensors of dtypes `Tout`."""
    return numpy_function(func, inp, Tout, stateful=stateful, name=name)
