"""`Dataset.padded_batch`: batches of elements of different shapes, padded.

padded_batch(n, padded_shapes, padding_values) stacks n consecutive elements as batch does, first
padding each component to a common shape: in each dimension, the size given in its
`padded_shapes` entry, or (None, or no entry) the largest size in the batch. Padding is
`padding_values`' entry for the component (default 0, or b"" for strings). `padded_shapes` and
`padding_values` follow the structure of the elements, matched component by component (a
shape, itself a list or tuple of sizes, counts as one entry); a single entry given for a
structure of several applies to all of them. An element larger than its padded shape is
TensorFlow's DataLossError, naming the batch, element and component.
"""
import numpy as np

from ..framework.errors import DataLossError
from ..framework.tensor_shape import TensorShape
from ..tracing.signatures import TensorSpec
from ..util import nest
from .batching import _BatchStage, _count, _positive
from .dataset import Dataset

__all__ = ["PaddedBatchDataset"]


class PaddedBatchDataset(Dataset):
    def __init__(self, dataset, batch_size, padded_shapes=None, padding_values=None,
                 drop_remainder=False):
        self._input = dataset
        self._size = _positive(batch_size, "Dataset.padded_batch: batch_size")
        self._drop = bool(drop_remainder)
        n = len(dataset._specs)
        shapes = [None] * n if padded_shapes is None else [
            TensorShape(s) for s in _as_leaves(padded_shapes, dataset._structure, n,
                                               "padded_shapes")]
        values = [None] * n if padding_values is None else _as_leaves(
            padding_values, dataset._structure, n, "padding_values")
        self._shapes, self._values = shapes, values
        specs = []
        for spec, shape in zip(dataset._specs, shapes):
            if shape is not None and spec.shape.rank is not None and (
                    shape.rank != spec.shape.rank or not all(
                        p is None or d is None or p >= d for p, d in
                        zip(shape.as_list(), spec.shape.as_list()))):
                raise ValueError(f"Dataset.padded_batch: padded shape {shape} does not fit the "
                                 f"component shape {spec.shape}.")
            inner = shape if shape is not None else TensorShape(
                [None] * spec.shape.rank if spec.shape.rank is not None else None)
            specs.append(TensorSpec(TensorShape([self._size if self._drop else None]
                                                ).concatenate(inner), spec.dtype))
        super().__init__(dataset._structure, specs,
                         _count(dataset._cardinality, self._size, self._drop), (dataset,))

    def _pad(self, elements, index):
        out = []
        for j, (shape, value) in enumerate(zip(self._shapes, self._values)):
            parts = [e[j] for e in elements]
            biggest = np.max([p.shape for p in parts], axis=0) if parts[0].ndim else ()
            target = [b if shape is None or shape[i] is None else shape[i]
                      for i, b in enumerate(biggest)]
            fill = _padding(value, parts[0].dtype)
            batch = np.full([len(parts)] + list(target), fill, dtype=parts[0].dtype)
            for k, p in enumerate(parts):
                if any(d > t for d, t in zip(p.shape, target)):
                    raise DataLossError(
                        f"Attempted to pad to a smaller size than the input element: "
                        f"Dataset.padded_batch: element {k} of batch {index} has shape "
                        f"{list(p.shape)} in component {j}, larger than the padded shape "
                        f"{target}.")
                batch[(k,) + tuple(slice(0, d) for d in p.shape)] = p if p.ndim else p[()]
            out.append(batch)
        return tuple(out)

    def _stage(self):
        return _BatchStage(self._input._stage(), self._size, self._drop, self._pad)


def _padding(value, dtype):
    if value is None:
        return b"" if dtype.kind == "O" else 0
    value = np.asarray(getattr(value, "_value", value))
    return value.reshape(()).item() if value.dtype.kind != "O" else value.reshape(())[()]


def _as_leaves(value, structure, n, what):
    """The entries of `value` at the components of `structure` (a shape, a list, is one entry);
    one entry given for a structure of several applies to all of them."""
    if structure is None or not isinstance(value, (tuple, dict)) or _is_shape(value):
        if structure is not None and not (isinstance(value, (tuple, dict)) and
                                          not _is_shape(value)):
            return [value] * n
        return [value]
    leaves, stack = [], [(structure, value)]
    while stack:
        node, given = stack.pop()
        if isinstance(node, dict):
            if not isinstance(given, dict) or set(given) != set(node):
                raise ValueError(f"Dataset.padded_batch: {what} {value!r} does not match the "
                                 f"structure of the elements, whose keys are {sorted(node)}.")
            stack.extend(reversed([(node[k], given[k]) for k in sorted(node, key=nest._sort_key)]))
        elif isinstance(node, tuple):
            if not isinstance(given, (tuple, list)) or len(given) != len(node) or (
                    _is_shape(given) and not isinstance(given, tuple)):
                raise ValueError(f"Dataset.padded_batch: {what} {value!r} does not match the "
                                 f"structure of the elements ({len(node)} components here).")
            stack.extend(reversed(list(zip(node, given))))
        else:
            leaves.append(given)
    if len(leaves) != n:
        raise ValueError(f"Dataset.padded_batch: {what} has {len(leaves)} entries for {n} "
                         "components.")
    return leaves


def _is_shape(value):
    return isinstance(value, (list, TensorShape)) or (
        isinstance(value, tuple) and all(v is None or isinstance(v, (int, np.integer))
                                         for v in value))
