"""What every feature column shares: its identity, the transformation cache and the conversion
of raw features.

Columns are immutable values compared by their fields (TensorFlow's columns are namedtuples), so
two calls that build the same column get the same cache entry. `TransformCache(features)`
transforms each column at most once: `get(key)` gives a raw feature as a tensor (a rank-1
dense feature becomes [batch, 1], as TensorFlow expands it) and `get(column)` the column's
transformed value. Categorical columns give `IdWeightPair(id_tensor, weight_tensor)`: a
SparseTensor of int64 ids per example, with optional weights. A dense raw feature used as
categorical input becomes sparse by dropping its "missing" entries ('' for strings, -1 for
integers), as TensorFlow's `_to_sparse_input_and_drop_ignore_values` does.
"""
import collections

import numpy as np

from ..framework import dtypes
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..ops.array_ops import where as where_v2
from ..ops.creation_ops import shape as shape_of
from ..ops.indexing_ops import gather_nd
from ..ops.math_ops import not_equal
from ..ops.reshape_ops import expand_dims
from ..ops.sparse.reshaping import reshape as sparse_reshape

__all__ = ["FeatureColumn", "DenseColumn", "CategoricalColumn", "IdWeightPair",
           "TransformCache", "to_sparse_input", "check_columns"]

IdWeightPair = collections.namedtuple("IdWeightPair", ["id_tensor", "weight_tensor"])


def _frozen(value):
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, np.ndarray):
        return tuple(value.tolist())
    return value


class FeatureColumn:
    """A column: its fields (in `_fields` order), compared and hashed by value."""

    _fields = ()

    def __init__(self, **fields):
        for key in self._fields:
            object.__setattr__(self, key, _frozen(fields[key]))

    def __setattr__(self, key, value):
        raise AttributeError(f"{type(self).__name__} is immutable; use _replace({key}=...).")

    def _values(self):
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other):
        return type(self) is type(other) and self._values() == other._values()

    def __hash__(self):
        return hash((type(self).__name__,) + tuple(_hashable(v) for v in self._values()))

    def __repr__(self):
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({fields})"

    def _replace(self, **changes):
        fields = {f: getattr(self, f) for f in self._fields}
        fields.update(changes)
        return type(self)(**fields)

    def get_config(self):
        return {f: getattr(self, f) for f in self._fields}

    @property
    def parents(self):
        """The columns (and raw feature names) this one is computed from."""
        return [getattr(self, f) for f in ("source_column", "categorical_column", "key")
                if f in self._fields][:1]

    def transform_feature(self, cache, state_manager=None):
        raise NotImplementedError


def _hashable(value):
    try:
        hash(value)
        return value
    except TypeError:
        return id(value)


class DenseColumn(FeatureColumn):
    """A column with a dense value per example: `variable_shape` (without the batch) and
    `get_dense_tensor(cache)`; `trainable` and `collections` reach the variables a column
    makes (an embedding table)."""

    def get_dense_tensor(self, cache, state_manager=None, trainable=True, collections=None):
        return cache.get(self)


class CategoricalColumn(FeatureColumn):
    """A column of integer ids in [0, num_buckets): `get_sparse_tensors(cache)`."""

    def get_sparse_tensors(self, cache, state_manager=None):
        return IdWeightPair(cache.get(self), None)


class TransformCache:
    """Each feature column transformed at most once over one `features` dict."""

    def __init__(self, features):
        if not isinstance(features, dict):
            raise ValueError(f"features should be a dictionary of `Tensor`s. Given type: "
                             f"{type(features)}")
        self._features = dict(features)
        self._cache = {}

    def get(self, key, state_manager=None):
        if key in self._cache:
            return self._cache[key]
        if isinstance(key, str):
            value = self._raw(key)
        elif isinstance(key, FeatureColumn):
            value = key.transform_feature(self, state_manager)
        else:
            raise TypeError(f"Feature {key!r} is not supported: a key is a string or a "
                            f"FeatureColumn.")
        self._cache[key] = value
        return value

    def _raw(self, key):
        if key not in self._features:
            raise ValueError(f"Feature {key} is not in features dictionary (its keys: "
                             f"{sorted(self._features)}).")
        value = self._features[key]
        if not isinstance(value, SparseTensor):
            value = convert_to_tensor(value)
        rank = value.shape.rank
        if rank == 0:
            raise ValueError(f"Feature (key: {key}) cannot have rank 0. Given: {value}")
        if rank == 1:
            if isinstance(value, SparseTensor):
                return sparse_reshape(value, [-1, 1])
            return expand_dims(value, -1)
        return value


def to_sparse_input(value, ignore_value=None):
    """A SparseTensor of `value`'s entries other than `ignore_value` ('' for strings, -1 for
    integers by default); a SparseTensor unchanged."""
    if isinstance(value, SparseTensor):
        return value
    if ignore_value is None:
        ignore_value = "" if value.dtype == dtypes.string else -1
    keep = not_equal(value, convert_to_tensor(ignore_value, dtype=value.dtype))
    indices = where_v2(keep)
    return SparseTensor(indices, gather_nd(value, indices), shape_of(value, out_type=dtypes.int64))


def check_columns(columns, kind, fn):
    """`columns` as a list, each an instance of `kind` (TensorFlow's messages)."""
    if isinstance(columns, FeatureColumn):
        columns = [columns]
    columns = list(columns)
    if not columns:
        raise ValueError("feature_columns must not be empty.")
    for column in columns:
        if not isinstance(column, kind):
            kinds = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            raise ValueError(f"{fn}: items of feature_columns must be a {kinds}. "
                             f"You can wrap a categorical column with an embedding_column or "
                             f"indicator_column. Given: {column}")
    names = [c.name for c in columns]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"{fn}: duplicate feature column names {dupes}: each column may "
                         f"appear once.")
    return columns
