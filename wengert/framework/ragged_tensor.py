"""`RaggedTensor`: a tensor whose rows have different lengths, stored as TensorFlow stores it.

A ragged tensor of ragged rank k is its flat values (a dense tensor holding every entry, row
after row) and k row partitions, outermost first. One partition is `row_splits`, an integer
vector [nrows + 1] that starts at 0 and never decreases: row i of the level is

    values[row_splits[i]:row_splits[i + 1]]       row_lengths[i] = row_splits[i+1] - row_splits[i]

where `values` is the next level (a RaggedTensor) or, at the last level, the flat values. A
partition may also know that every row has the same length (`uniform_row_length`), which makes
that dimension a uniform one in the static shape. So `[[1, 2], [], [3]]` is flat values
[1, 2, 3] with row_splits [0, 2, 2, 3], and its shape is [3, None].

This module holds the container and what needs no op: its parts, its static shape, its value as
nested Python lists and as NumPy arrays, and its printed form. What computes (row lengths, value
row ids, to_tensor, the factory methods from_row_lengths and the like, indexing) is made of ops,
so the ops layer installs those methods (ops/ragged/methods.py). Ops take the container apart:
gradients reach the flat values through whatever op reads them.
"""
import numpy as np

from .composite_tensor import CompositeTensor
from .static_value import static_value
from .tensor import is_eager_tensor
from .tensor_shape import TensorShape

__all__ = ["RaggedTensor", "RaggedTensorValue", "is_ragged", "spec_text"]


class RaggedTensor(CompositeTensor):
    """A tensor with ragged rows: `values` split into rows by `row_splits`. Build one with
    `tf.ragged.constant` or a factory method (`RaggedTensor.from_row_splits`, ...)."""

    __slots__ = ("_row_splits", "_uniform_row_length", "_cached_lengths", "_cached_rowids",
                 "__weakref__")

    def __init__(self, values, row_partition, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory "
                             "methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_partition
        self._uniform_row_length = uniform_row_length
        self._cached_lengths = None
        self._cached_rowids = None

    # (values, dtype and graph: CompositeTensor)
    @property
    def row_splits(self):
        return self._row_splits

    @property
    def uniform_row_length(self):
        """The length of every row when the partition says they are equal, else None."""
        return self._uniform_row_length

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    @property
    def flat_values(self):
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values._values
        return values

    @property
    def nested_row_splits(self):
        splits, rt = [], self
        while isinstance(rt, RaggedTensor):
            splits.append(rt._row_splits)
            rt = rt._values
        return tuple(splits)

    @property
    def ragged_rank(self):
        return len(self.nested_row_splits)

    @property
    def shape(self):
        """The static shape [nrows, row length or None, *the values' inner dimensions]."""
        nrows = self._row_splits.shape[0]
        nrows = None if nrows is None else nrows - 1
        inner = self._values.shape
        width = _static_int(self._uniform_row_length)
        dims = [nrows, width] + (list(inner.as_list()[1:]) if inner.rank is not None else [])
        return TensorShape(dims) if inner.rank is not None else TensorShape(None)

    def get_shape(self):
        return self.shape

    @property
    def is_eager(self):
        return is_eager_tensor(self.flat_values) and all(
            is_eager_tensor(s) for s in self.nested_row_splits)

    def numpy(self):
        """The value as NumPy: a ragged dimension is an object array of rows (one array per
        row), a uniform one a dimension of an ordinary array, as TensorFlow returns it."""
        if not self.is_eager:
            raise ValueError("RaggedTensor.numpy() is only supported in eager mode.")
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + np.shape(values)[1:], dtype=_numpy_dtype(values))
        if any(len(row) != len(rows[0]) for row in rows):
            out = np.empty(len(rows), dtype=object)
            out[:] = rows
            return out
        return np.array(rows)

    def to_list(self):
        """The value as nested Python lists (bytes for strings)."""
        if not self.is_eager:
            raise ValueError("RaggedTensor.to_list() is only supported in eager mode; in a "
                             "tf.function return the ragged tensor and call to_list outside.")
        values = self._values
        values = values.to_list() if isinstance(values, RaggedTensor) else values.numpy().tolist()
        splits = self._row_splits.numpy().tolist()
        return [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

    def _nest_components(self):
        """[flat_values, row splits outermost first]: what tf.nest(expand_composites=True) and
        tf.function see of it."""
        return [self.flat_values, *self.nested_row_splits]

    def _component_shapes(self):
        """The components' shapes as a trace sees them (TensorFlow's RaggedTensorSpec): flat
        values [None, *inner], the outer splits [nrows + 1], inner splits [None]."""
        flat = self.flat_values.shape
        inner = flat.as_list()[1:] if flat.rank is not None else None
        shapes = [TensorShape(None if inner is None else [None] + inner),
                  TensorShape([self._row_splits.shape[0]])]
        return shapes + [TensorShape([None])] * (self.ragged_rank - 1)

    def _nest_rebuild(self, components):
        """A ragged tensor of this one's ragged rank from new components."""
        components = list(components)
        result = components[0]
        for splits in reversed(components[1:]):
            result = RaggedTensor(result, splits, internal=True)
        return result

    def with_values(self, new_values):
        """This partition over `new_values` (same number of rows as `values`)."""
        _check_same_rows(self._values, new_values, "with_values")
        return RaggedTensor(new_values, self._row_splits, True, self._uniform_row_length)

    def with_flat_values(self, new_values):
        """These nested partitions over `new_values` (same number of rows as `flat_values`)."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def consumers(self):
        """The ops of the graph being built that read this tensor's parts (none eagerly)."""
        graph = self.graph
        if graph is None:
            return []
        parts = {id(t) for t in (self.flat_values, *self.nested_row_splits)}
        return [op for op in graph.get_operations() if any(id(t) in parts for t in op.inputs)]

    def __repr__(self):
        if self.is_eager:
            with np.printoptions(formatter={"all": _formatter}):
                return f"<tf.RaggedTensor {_formatter(self.numpy())}>"
        return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __reduce__(self):
        raise TypeError("RaggedTensor is not picklable; pickle rt.flat_values.numpy() and each "
                        "of rt.nested_row_splits (.numpy()) instead.")

    def _as_tensor(self, dtype=None):
        raise TypeError(f"Failed to convert elements of a RaggedTensor (shape {self.shape}, "
                        f"dtype {self.dtype.name}) to Tensor. Consider casting elements to a "
                        "supported type: a RaggedTensor becomes a Tensor with "
                        "rt.to_tensor(default_value) (padding) or rt.flat_values.")


class RaggedTensorValue:
    """TensorFlow 1's value of a ragged tensor: NumPy values (or a nested RaggedTensorValue)
    split into rows by NumPy row splits (what a TF 1 Session returned for a RaggedTensor)."""

    def __init__(self, values, row_splits):
        if not isinstance(row_splits, np.ndarray) or row_splits.dtype not in (np.int32,
                                                                                np.int64):
            raise TypeError("RaggedTensorValue: row_splits must be an int32 or int64 NumPy "
                            f"array, got {row_splits!r}.")
        if not isinstance(values, (np.ndarray, RaggedTensorValue)):
            raise TypeError("RaggedTensorValue: values must be a NumPy array or a "
                            f"RaggedTensorValue, got {type(values).__name__}.")
        self.values, self.row_splits = values, row_splits

    @property
    def flat_values(self):
        values = self.values
        while isinstance(values, RaggedTensorValue):
            values = values.values
        return values

    @property
    def nested_row_splits(self):
        inner = self.values.nested_row_splits if isinstance(self.values, RaggedTensorValue) \
            else ()
        return (self.row_splits,) + inner

    @property
    def ragged_rank(self):
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    def to_list(self):
        values = self.values.to_list() if isinstance(self.values, RaggedTensorValue) else \
            self.values.tolist()
        splits = self.row_splits.tolist()
        return [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

    def __repr__(self):
        return f"tf.RaggedTensorValue(values={self.values!r}, row_splits={self.row_splits!r})"


def spec_text(shape, dtype, ragged_rank, row_splits_dtype):
    """How TensorFlow prints the RaggedTensorSpec of these (a traced signature's text)."""
    dims = "None" if shape.rank is None else repr(shape.as_list())
    return (f"RaggedTensorSpec(TensorShape({dims}), tf.{dtype.name}, {ragged_rank}, "
            f"tf.{row_splits_dtype.name})")


def is_ragged(value):
    """True for a RaggedTensor."""
    return isinstance(value, RaggedTensor)


def _formatter(x):
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


def _numpy_dtype(values):
    return values.dtype if isinstance(values, np.ndarray) else object


def _static_int(t):
    if t is None:
        return None
    if is_eager_tensor(t):
        return int(t.numpy())
    value = static_value(t)  # in a graph: known when it folds to a constant
    return None if value is None else int(value)


def _check_same_rows(old, new, fn):
    a, b = old.shape, new.shape
    if a.rank and b.rank and a[0] is not None and b[0] is not None and a[0] != b[0]:
        raise ValueError(f"RaggedTensor.{fn}: the new values have {b[0]} rows but the "
                         f"partition expects {a[0]}; pass values with as many rows (shape "
                         f"{a}).")
    if b.rank == 0:
        raise ValueError(f"RaggedTensor.{fn}: the new values must have rank >= 1, got a scalar.")
