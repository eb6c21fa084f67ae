"""Datasets that mix or draw: sample_from_datasets, choose_from_datasets, counter and random
(rejection_resample, built on sample_from_datasets, is resampling.py).

`choose_from_datasets(datasets, choice_dataset)`: element k is the next element of
datasets[choice_k] (choice_dataset holds int64 scalars). A choice of an exhausted dataset ends
the output when `stop_on_empty_dataset` (the default), or is skipped.

`sample_from_datasets(datasets, weights, seed)`: each element comes from a dataset drawn at
random with probability weights[i] / sum(weights) (uniform without weights; `weights` may also
be a dataset of weight vectors, one per draw). When the drawn dataset is exhausted, the output
ends with `stop_on_empty_dataset`; otherwise that dataset leaves the draw and the others'
weights are renormalised, until all are exhausted. Elements of all the datasets must share
structure and dtypes; differing dimensions become None. Draws use NumPy's generator seeded by
`seed` (and by the pass number with `rerandomize_each_iteration`), not TensorFlow's Philox, so
a seeded run is reproducible here but draws other values than TensorFlow.

`counter(start, step, dtype)` counts forever; `random(seed)` is an endless stream of random
int64 scalars, uniform over [0, 2**63).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..ops.random.seeded import get_seed
from ..tracing.signatures import TensorSpec
from . import structure as st
from .dataset import INFINITE, UNKNOWN, Dataset, Stage

__all__ = ["ChooseDataset", "SampleDataset", "counter",
           "RandomDataset"]


def _common(datasets, what):
    datasets = list(datasets)
    if not datasets or not all(isinstance(d, Dataset) for d in datasets):
        raise TypeError(f"{what}: `datasets` must be a non-empty list of datasets.")
    first = datasets[0]
    specs = list(first._specs)
    for d in datasets[1:]:
        st.check_same_structure(first._structure, d._structure, what)
        for k, (a, b) in enumerate(zip(specs, d._specs)):
            if a.dtype is not b.dtype:
                raise TypeError(f"{what}: all datasets must have the same dtypes; component {k} "
                                f"is {a.dtype.name} in one and {b.dtype.name} in another.")
        specs = [st.relax(a, b) for a, b in zip(specs, d._specs)]
    return datasets, first._structure, specs


class _ChooseStage(Stage):
    def __init__(self, dataset):
        self._ds = dataset
        self._inputs = [d._stage() for d in dataset._datasets]
        self._choices, self._empty = dataset._choices._stage(), set()

    def __next__(self):
        n = len(self._inputs)
        while True:
            choice = int(next(self._choices)[0])
            if not 0 <= choice < n:
                raise InvalidArgumentError(f"choose_from_datasets: choice {choice} is out of "
                                           f"range for {n} datasets.")
            if choice in self._empty:
                continue
            item = next(self._inputs[choice], None)
            if item is not None:
                return item
            if self._ds._stop:
                raise StopIteration
            self._empty.add(choice)
            if len(self._empty) == n:
                raise StopIteration


class ChooseDataset(Dataset):
    def __init__(self, datasets, choice_dataset, stop_on_empty_dataset=True):
        what = "Dataset.choose_from_datasets"
        self._datasets, structure, specs = _common(datasets, what)
        spec = choice_dataset.element_spec if isinstance(choice_dataset, Dataset) else None
        if not isinstance(spec, TensorSpec) or spec.dtype is not dtypes.int64 or \
                spec.shape.rank != 0:
            raise TypeError(f"{what}: `choice_dataset` must be a dataset of scalar tf.int64 "
                            f"tensors, got {spec}.")
        self._choices, self._stop = choice_dataset, bool(stop_on_empty_dataset)
        super().__init__(structure, specs, UNKNOWN, (*self._datasets, choice_dataset))

    def _stage(self):
        return _ChooseStage(self)


def _rng(seeds, passes):
    if seeds is None:
        return np.random.default_rng()
    return np.random.default_rng(seeds + [passes])


class _SampleStage(Stage):
    def __init__(self, dataset, rng):
        self._ds, self._rng = dataset, rng
        self._inputs = [d._stage() for d in dataset._datasets]
        self._live = np.ones(len(self._inputs), bool)
        self._weights = dataset._weights_stage()

    def __next__(self):
        while self._live.any():
            w = np.where(self._live, self._weights(), 0.0)
            if w.sum() <= 0:
                raise StopIteration
            i = int(self._rng.choice(len(w), p=w / w.sum()))
            item = next(self._inputs[i], None)
            if item is not None:
                return item
            if self._ds._stop:
                raise StopIteration
            self._live[i] = False
        raise StopIteration


class SampleDataset(Dataset):
    def __init__(self, datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                 rerandomize_each_iteration=None):
        what = "Dataset.sample_from_datasets"
        self._datasets, structure, specs = _common(datasets, what)
        n = len(self._datasets)
        if isinstance(weights, Dataset):
            self._weight_ds, self._fixed = weights, None
        else:
            fixed = np.ones(n) if weights is None else np.asarray(
                getattr(weights, "_value", weights), np.float64).reshape(-1)
            if fixed.shape != (n,) or (fixed < 0).any():
                raise ValueError(f"{what}: `weights` must hold one non-negative weight per "
                                 f"dataset ({n}), got {weights!r}.")
            self._weight_ds, self._fixed = None, fixed
        pair = get_seed(seed)
        self._seeds = None if pair[0] is None else list(pair)
        self._stop, self._passes = bool(stop_on_empty_dataset), 0
        self._rerandomize = bool(rerandomize_each_iteration)
        inputs = self._datasets + ([weights] if isinstance(weights, Dataset) else [])
        super().__init__(structure, specs, UNKNOWN, inputs)

    def _weights_stage(self):
        if self._fixed is not None:
            return lambda: self._fixed
        stage = self._weight_ds._stage()
        return lambda: np.asarray(next(stage)[0], np.float64)

    def _stage(self):
        epoch = self._passes if self._rerandomize else 0
        self._passes += 1
        return _SampleStage(self, _rng(self._seeds, epoch))


class _CountStage(Stage):
    def __init__(self, start, step, dtype):
        self._next, self._step, self._dtype = start, step, dtype

    def __next__(self):
        value, self._next = self._next, self._next + self._step
        return (np.array(value, self._dtype),)


class _CounterDataset(Dataset):
    def __init__(self, start, step, dtype):
        self._start, self._step = start, step
        self._dtype = dtypes.as_dtype(dtype)
        super().__init__(None, [TensorSpec([], self._dtype)], INFINITE)

    def _stage(self):
        return _CountStage(self._start, self._step, self._dtype.as_numpy_dtype)


def counter(start=0, step=1, dtype=dtypes.int64, name=None):
    """start, start + step, start + 2 step, ... forever (tf.data.Dataset.counter)."""
    value = (lambda v: np.asarray(getattr(v, "_value", v)).item())
    return _CounterDataset(value(start), value(step), dtype)


class _RandomStage(Stage):
    def __init__(self, rng):
        self._rng, self._block, self._at = rng, np.zeros(0, np.int64), 0

    def __next__(self):
        if self._at >= len(self._block):
            self._block, self._at = self._rng.integers(0, 2 ** 63 - 1, 1024, np.int64), 0
        self._at += 1
        return (self._block[self._at - 1:self._at].reshape(()),)


class RandomDataset(Dataset):
    """Endless random int64 scalars: tf.data.Dataset.random(seed, rerandomize_each_iteration)
    and tf.data.experimental.RandomDataset(seed)."""

    def __init__(self, seed=None, rerandomize_each_iteration=None, name=None):
        pair = get_seed(seed)
        self._seeds, self._passes = (None if pair[0] is None else list(pair)), 0
        self._rerandomize, self._name = bool(rerandomize_each_iteration), name
        super().__init__(None, [TensorSpec([], dtypes.int64)], INFINITE)

    def _stage(self):
        epoch = self._passes if self._rerandomize else 0
        self._passes += 1
        return _RandomStage(_rng(self._seeds, epoch))
