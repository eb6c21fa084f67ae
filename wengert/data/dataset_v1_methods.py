"""TensorFlow 1's methods of `tf.data.Dataset` (its DatasetV1), installed on wengert's Dataset
when wengert.data loads.

In `import tensorflow.compat.v1 as tf` programs a dataset has `make_one_shot_iterator()`,
`make_initializable_iterator()` and `output_types`/`output_shapes`/`output_classes`; those are
the functions of graph_iterators.py as methods. `map_with_legacy_function` and
`filter_with_legacy_function` are `map` and `filter` (wengert traces one way), and
`from_sparse_tensor_slices` is `from_tensor_slices` of the SparseTensor. TensorFlow 2's Dataset
lacks these names; here they exist on every Dataset, so TF 1 and TF 2 code share one class.
"""
from .dataset import Dataset
from .graph_iterators import (get_output_classes, get_output_shapes, get_output_types,
                        make_initializable_iterator, make_one_shot_iterator)

__all__ = []


def _map_with_legacy_function(self, map_func, num_parallel_calls=None, deterministic=None):
    """`map` (TensorFlow 1 ran `map_func` as a legacy graph function)."""
    return self.map(map_func, num_parallel_calls=num_parallel_calls,
                    deterministic=deterministic)


def _filter_with_legacy_function(self, predicate):
    """`filter` (TensorFlow 1 ran `predicate` as a legacy graph function)."""
    return self.filter(predicate)


Dataset.make_one_shot_iterator = make_one_shot_iterator
Dataset.make_initializable_iterator = make_initializable_iterator
Dataset.output_types = property(get_output_types)
Dataset.output_shapes = property(get_output_shapes)
Dataset.output_classes = property(get_output_classes)
Dataset.map_with_legacy_function = _map_with_legacy_function
Dataset.filter_with_legacy_function = _filter_with_legacy_function
Dataset.from_sparse_tensor_slices = staticmethod(Dataset.from_tensor_slices)
