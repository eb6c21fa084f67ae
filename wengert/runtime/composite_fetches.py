"""What `Session.run` gives for a fetched composite tensor, as TensorFlow 1 gives it.

A Session fetches tensors; an IndexedSlices (the gradient of a gather, of an embedding lookup)
or a SparseTensor is several tensors at once. Before the run each is replaced by its component
tensors, and after it the fetched arrays are put back together as a named tuple of NumPy values:

    IndexedSlices -> IndexedSlicesValue(values, indices, dense_shape)
    SparseTensor  -> SparseTensorValue(indices, values, dense_shape)

A component whose value is known without running (an IndexedSlices' static dense shape, an
eager tensor) is not fetched; it is taken as it is. A SparseTensor fed (a sparse placeholder)
takes a SparseTensorValue, an (indices, values, dense_shape) tuple or a SparseTensor: each of
its three tensors is fed its part.
"""
import collections

import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import array_of, is_eager_tensor

__all__ = ["IndexedSlicesValue", "SparseTensorValue", "expand", "has_composites",
           "expand_feeds"]

IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue",
                                            ["values", "indices", "dense_shape"])
SparseTensorValue = collections.namedtuple("SparseTensorValue",
                                           ["indices", "values", "dense_shape"])


def has_composites(flat):
    return any(isinstance(f, (IndexedSlices, SparseTensor)) for f in flat)


def expand(flat):
    """(the fetches with composites replaced by the components to fetch, a function taking
    the fetched values, in that order, to the caller's values)."""
    fetches, builders = [], []
    for item in flat:
        if isinstance(item, IndexedSlices):
            parts = [item.values, item.indices, _indexed_shape(item)]
            builders.append((IndexedSlicesValue, _take(parts, fetches)))
        elif isinstance(item, SparseTensor):
            parts = [item.indices, item.values, item.dense_shape]
            builders.append((SparseTensorValue, _take(parts, fetches)))
        else:
            builders.append((None, [len(fetches)]))
            fetches.append(item)

    def rebuild(values):
        out = []
        for kind, slots in builders:
            got = [values[s] if isinstance(s, int) else s.value for s in slots]
            out.append(got[0] if kind is None else kind(*got))
        return out
    return fetches, rebuild


def expand_feeds(feed_dict):
    """feed_dict with each SparseTensor key replaced by its three tensors."""
    out = {}
    for key, value in feed_dict.items():
        if not isinstance(key, SparseTensor):
            out[key] = value
            continue
        if isinstance(value, SparseTensor):
            value = (value.indices, value.values, value.dense_shape)
        if not isinstance(value, tuple) or len(value) != 3:
            raise TypeError(f"Cannot feed SparseTensor {key!r:.60} with {type(value).__name__}: "
                            "give a tf.compat.v1.SparseTensorValue or an (indices, values, "
                            "dense_shape) tuple.")
        out.update(zip((key.indices, key.values, key.dense_shape), value))
    return out


class _Known:
    """A component known without running the graph."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _indexed_shape(slices):
    static = slices._static
    if static is not None:
        return _Known(np.array(static, np.int64))
    return slices.dense_shape


def _take(parts, fetches):
    """Slots for `parts`: a fetch index for each graph tensor (appended to `fetches`), a _Known
    for a value there already."""
    slots = []
    for part in parts:
        if part is None:
            slots.append(_Known(None))
        elif isinstance(part, _Known):
            slots.append(part)
        elif is_eager_tensor(part):
            slots.append(_Known(array_of(part)))
        else:
            slots.append(len(fetches))
            fetches.append(part)
    return slots
