"""Transformations that keep or drop whole elements: ignore_errors, take_while, unique, and
get_single_element.

`ignore_errors()` drops every element whose computation raised (a record that does not parse,
a map function that failed) and goes on with the next one, so the pipeline stays usable; with
`log_warning=True` each dropped error is logged. `take_while(predicate)` yields elements until
`predicate` (traced once, as filter's) first returns False. `unique()` drops elements equal to
one seen before in the pass (scalar or vector elements of an integer or string dtype, as
TensorFlow allows). `get_single_element()` is the one element of a dataset of exactly one
element, else InvalidArgumentError in TensorFlow's words.
"""
import logging

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from . import structure as st
from .dataset import INFINITE, UNKNOWN, Dataset, Stage
from .functional import TracedFunction
from .iterator import without_recording

__all__ = ["IgnoreErrorsDataset", "TakeWhileDataset", "UniqueDataset", "get_single_element"]


class _IgnoreErrorsStage(Stage):
    def __init__(self, upstream, log):
        self._up, self._log = upstream, log

    def __next__(self):
        while True:
            try:
                return next(self._up)
            except StopIteration:
                raise
            except Exception as err:  # noqa: BLE001 - dropping failed elements is the point
                if self._log:
                    logging.getLogger("wengert").warning("ignore_errors dropped an element: %s",
                                                         err)


class IgnoreErrorsDataset(Dataset):
    def __init__(self, dataset, log_warning=False):
        self._input, self._log = dataset, bool(log_warning)
        card = INFINITE if dataset._cardinality == INFINITE else UNKNOWN
        super().__init__(dataset._structure, dataset._specs, card, (dataset,))

    def _rows(self):
        return self._input._rows()

    def _stage(self):
        return _IgnoreErrorsStage(self._input._stage(), self._log)


class _TakeWhileStage(Stage):
    def __init__(self, upstream, predicate):
        self._up, self._predicate, self._done = upstream, predicate, False

    def __next__(self):
        if self._done:
            raise StopIteration
        components = next(self._up)
        if not bool(self._predicate(components)[0]):
            self._done = True
            raise StopIteration
        return components


class TakeWhileDataset(Dataset):
    def __init__(self, dataset, predicate):
        self._input = dataset
        self._predicate = TracedFunction(predicate, dataset._structure, dataset._specs,
                                         "Dataset.take_while predicate")
        specs = self._predicate.out_specs
        if len(specs) != 1 or specs[0].dtype is not dtypes.bool or specs[0].shape.rank not in (
                0, None):
            raise ValueError(f"Dataset.take_while: `predicate` must return a scalar boolean "
                             f"tensor, got {specs}.")
        super().__init__(dataset._structure, dataset._specs, UNKNOWN, (dataset,))

    def _stage(self):
        return _TakeWhileStage(self._input._stage(), self._predicate)


_UNIQUE_TYPES = (dtypes.int32, dtypes.int64, dtypes.string)


class _UniqueStage(Stage):
    def __init__(self, upstream):
        self._up, self._seen = upstream, set()

    def __next__(self):
        while True:
            components = next(self._up)
            key = tuple(c.tobytes() if c.dtype != object else tuple(c.reshape(-1))
                        for c in components) + tuple(c.shape for c in components)
            if key not in self._seen:
                self._seen.add(key)
                return components


class UniqueDataset(Dataset):
    def __init__(self, dataset):
        specs = dataset._specs
        if len(specs) != 1 or not hasattr(specs[0], "shape") or specs[0].dtype not in \
                _UNIQUE_TYPES or specs[0].shape.rank not in (0, 1):
            raise TypeError(f"Dataset.unique: elements must be scalars or vectors of int32, "
                            f"int64 or string; this dataset's elements are "
                            f"{dataset.element_spec}.")
        self._input = dataset
        card = INFINITE if dataset._cardinality == INFINITE else UNKNOWN
        super().__init__(dataset._structure, specs, card, (dataset,))

    def _stage(self):
        return _UniqueStage(self._input._stage())


def get_single_element(dataset, name=None):
    """The one element of `dataset` (as tensors in its structure)."""
    if not isinstance(dataset, Dataset):
        raise TypeError(f"get_single_element: `dataset` must be a tf.data.Dataset, got "
                        f"{type(dataset).__name__}.")
    with without_recording():
        stage = dataset._stage()
        first = next(stage, None)
        if first is None:
            raise InvalidArgumentError("Dataset was empty.")
        if next(stage, None) is not None:
            raise InvalidArgumentError("Dataset had more than one element.")
    return st.to_tensors(dataset._structure, first)

