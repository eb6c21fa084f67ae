"""crossed_column: the hashed conjunctions of several categorical features.

For each example, every combination of one value from each crossed feature is hashed as
TensorFlow's SparseCross hashes it (FarmHash Fingerprint64 of each value, combined in order with
`hash_key`, modulo hash_bucket_size), giving one id per combination. A key is a raw feature's
name (its values are crossed as they come) or a categorical column (its ids are crossed); a
nested crossed column contributes its own keys. A hashed column cannot be crossed: TensorFlow
refuses it because hashing twice only adds collisions.
"""
from ..framework import dtypes
from ..framework.sparse_tensor import SparseTensor
from ..ops.cast_ops import cast
from ..ops.io.parsing_config import VarLenFeature
from ..ops.sparse.crossing import cross_hashed
from .base import CategoricalColumn
from .categorical import HashedColumn

__all__ = ["crossed_column", "CrossedColumn"]


def _name(key):
    return key if isinstance(key, str) else key.name


def _leaf_keys(column):
    """The raw keys and categorical columns a (possibly nested) cross combines, in order."""
    leaves, stack = [], list(reversed(column.keys))
    while stack:
        key = stack.pop()
        if isinstance(key, CrossedColumn):
            stack.extend(reversed(key.keys))
        else:
            leaves.append(key)
    return leaves


class CrossedColumn(CategoricalColumn):
    _fields = ("keys", "hash_bucket_size", "hash_key")

    @property
    def name(self):
        return "_X_".join(sorted(_name(k) for k in self.keys))

    @property
    def num_buckets(self):
        return self.hash_bucket_size

    @property
    def parse_example_spec(self):
        spec = {}
        for key in self.keys:
            if isinstance(key, str):
                spec[key] = VarLenFeature(dtypes.string)
            else:
                spec.update(key.parse_example_spec)
        return spec

    def transform_feature(self, cache, state_manager=None):
        features = []
        for key in _leaf_keys(self):
            if isinstance(key, str):
                features.append(cache.get(key))
                continue
            pair = key.get_sparse_tensors(cache, state_manager)
            if pair.weight_tensor is not None:
                raise ValueError(f"crossed_column does not support weight_tensor, but the "
                                 f"given column populates weight_tensor. Given column: "
                                 f"{key.name}")
            ids = pair.id_tensor
            if ids.dtype == dtypes.int32:
                ids = SparseTensor(ids.indices, cast(ids.values, dtypes.int64), ids.dense_shape)
            features.append(ids)
        return cross_hashed(features, num_buckets=self.hash_bucket_size, hash_key=self.hash_key)


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """Crosses of the features `keys` (names or categorical columns), hashed into
    hash_bucket_size buckets."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, (str, CategoricalColumn)):
            raise ValueError(f"Unsupported key type. All keys must be either string, or "
                             f"categorical column except HashedCategoricalColumn. Given: {key}")
        if isinstance(key, HashedColumn):
            raise ValueError(f"categorical_column_with_hash_bucket is not supported for "
                             f"crossing. Hashing before crossing will increase probability of "
                             f"collision. Instead, use the feature name as a string. Given: "
                             f"{key}")
    return CrossedColumn(keys=tuple(keys), hash_bucket_size=int(hash_bucket_size),
                         hash_key=hash_key)
