"""`keras.utils.PyDataset` (alias `Sequence`): batches served by Python indexing, for `fit`,
`evaluate` and `predict`.

A subclass implements `__getitem__(index)` returning batch `index` (`x`, `(x, y)` or
`(x, y, sample_weight)`, arrays or tensors) and `__len__` (or the `num_batches` property;
None means endless); `on_epoch_begin` / `on_epoch_end` run around every pass. `workers`,
`use_multiprocessing` and `max_queue_size` are accepted for Keras compatibility; batches are
read in this process, one at a time.

`as_dataset(py_dataset, shuffle)` is how the Keras loops read one: a tf.data Dataset whose
every pass calls on_epoch_begin, yields the batches (in an order shuffled by Python's `random`
when `shuffle`, as Keras's fit does) and calls on_epoch_end, with the number of batches as its
cardinality. Its element signature comes from batch 0 with every dimension left open.
"""
import random

import numpy as np

from ...data.dataset import Dataset
from ...data.methods import assert_cardinality
from ...framework.tensor import Tensor, array_of
from ...tracing.signatures import TensorSpec
from ...util import nest

__all__ = ["PyDataset", "Sequence", "as_dataset", "adapt_py_dataset"]


class PyDataset:
    """Base class of datasets read batch by batch through `__getitem__`."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        for name, value in (("workers", workers), ("max_queue_size", max_queue_size)):
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"PyDataset: `{name}` must be a positive int, got {value!r}.")
        self._workers = workers
        self._use_multiprocessing = bool(use_multiprocessing)
        self._max_queue_size = max_queue_size

    @property
    def workers(self):
        return self._workers

    @property
    def use_multiprocessing(self):
        return self._use_multiprocessing

    @property
    def max_queue_size(self):
        return self._max_queue_size

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} must implement __getitem__(index) "
                                  "returning batch number `index`.")

    @property
    def num_batches(self):
        """The number of batches (`len(self)`); None when the dataset is endless."""
        if hasattr(type(self), "__len__"):
            return len(self)
        return None

    def on_epoch_begin(self):
        """Called at the start of every pass."""

    def on_epoch_end(self):
        """Called at the end of every pass."""


Sequence = PyDataset


def adapt_py_dataset(x, shuffle=False):
    """`as_dataset(x, shuffle)` for a PyDataset; anything else as it is."""
    return as_dataset(x, shuffle) if isinstance(x, PyDataset) else x


def _array(value):
    return array_of(value) if isinstance(value, Tensor) else np.asarray(value)


def _as_element(batch):
    batch = tuple(batch) if isinstance(batch, list) else batch
    return nest.map_structure(_array, batch)


def _signature(element):
    return nest.map_structure(
        lambda a: TensorSpec([None] * a.ndim, a.dtype.name if a.dtype != object else "string"),
        element)


def _batch_order(count, shuffle):
    order = list(range(count))
    if shuffle:
        random.shuffle(order)
    return order


def as_dataset(py_dataset, shuffle=False):
    """A Dataset of the batches of `py_dataset` (see the module docstring)."""
    count = py_dataset.num_batches
    if count is not None and count < 1:
        raise ValueError(f"{type(py_dataset).__name__}: the PyDataset has no batches "
                         f"(num_batches={count}); __len__ must be at least 1.")
    first = _as_element(py_dataset[0])

    def batches():
        py_dataset.on_epoch_begin()
        if count is None:
            index = 0
            while True:
                yield _as_element(py_dataset[index])
                index += 1
        for index in _batch_order(count, shuffle):
            yield _as_element(py_dataset[index])
        py_dataset.on_epoch_end()

    dataset = Dataset.from_generator(batches, output_signature=_signature(first))
    if count is None:
        return dataset
    return dataset.apply(assert_cardinality(count))
