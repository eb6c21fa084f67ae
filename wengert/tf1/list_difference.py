"""TensorFlow 1's `setdiff1d(x, y)`: the elements of the vector x that are not in y, in x's
order and with x's repeats, and their positions in x (`out[i] = x[idx[i]]`), as the named pair
ListDiff(out, idx). Built from a pairwise comparison (an element is kept when it equals no
element of y), so it runs eagerly and in graphs. Also `timestamp()`: the seconds since the epoch
when the op runs, as float64."""
import collections
import time

import numpy as np

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..ops import math_ops
from ..ops.array_ops import where
from ..ops.indexing_ops import boolean_mask
from ..ops.cast_ops import cast
from ..ops.io.script import numpy_function
from ..ops.reduce_ops import reduce_any
from ..ops.reshape_ops import expand_dims, reshape

__all__ = ["setdiff1d", "timestamp", "ListDiff"]

ListDiff = collections.namedtuple("ListDiff", ["out", "idx"])


def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
    """ListDiff(out, idx): x's elements not in y and their positions in x."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    index_dtype = dtypes.as_dtype(index_dtype)
    if index_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"setdiff1d: index_dtype must be int32 or int64, got {index_dtype.name}.")
    for value, label in ((x, "x"), (y, "y")):
        if value.shape.rank is not None and value.shape.rank != 1:
            raise ValueError(f"setdiff1d: {label} should be a 1D vector, got shape "
                             f"{value.shape}.")
    kept = math_ops.logical_not(reduce_any(
        math_ops.equal(expand_dims(x, 1), expand_dims(y, 0)), axis=1))
    out = boolean_mask(x, kept, name=name)
    idx = cast(reshape(where(kept), [-1]), index_dtype)
    return ListDiff(out, idx)


def timestamp(name=None):
    """The time when the op runs, in seconds since the epoch (float64)."""
    stamp = numpy_function(lambda: np.float64(time.time()), [], dtypes.float64,
                           stateful=True, name=name or "Timestamp")
    if hasattr(stamp, "set_shape"):
        stamp.set_shape([])
    return stamp
