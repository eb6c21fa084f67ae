"""Grouping elements by a key: group_by_window, bucket_by_sequence_length, group_by_reducer.

`group_by_window(key_func, reduce_func, window_size, window_size_func)`: `key_func(element)` (an
int64 scalar, traced once) sends each element to its key's group; when a group holds its window
size (`window_size`, or `window_size_func(key)` computed once per key) the group is handed to
`reduce_func(key, window_dataset)` as a dataset, and the elements of the dataset it returns are
the output. When the input ends, the groups still open are reduced in ascending key order, as
TensorFlow's (ordered) map of groups gives them.

`bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes)` is
group_by_window keyed by bucket: an element of length L goes to bucket i, the first with
L < boundaries[i] (the last bucket takes the rest), and each full bucket becomes one
padded_batch of bucket_batch_sizes[i] elements (padded to the longest in the batch, or to the
bucket's boundary - 1 with `pad_to_bucket_boundary`; a plain batch with `no_padding`).

`group_by_reducer(key_func, reducer)` folds each key's elements with a `Reducer(init_func,
reduce_func, finalize_func)`: state = init_func(key), state = reduce_func(state, element) per
element, and one output finalize_func(state) per key when the input ends, in ascending key order
(each pass folds anew; the element spec is that of finalize_func(init_func(0))).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from . import structure as st
from .dataset import UNKNOWN, Dataset, Stage
from .functional import TracedFunction, _LazySpec
from .iterator import without_recording

__all__ = ["GroupByWindowDataset", "bucket_by_sequence_length", "Reducer", "group_by_reducer",
           "GroupByReducerDataset"]


def _key_function(fn, dataset, what):
    traced = TracedFunction(fn, dataset._structure, dataset._specs, what)
    specs = traced.out_specs
    if len(specs) != 1 or specs[0].dtype is not dtypes.int64 or specs[0].shape.rank not in (
            0, None):
        raise ValueError(f"{what} must return a scalar tf.int64 tensor, got {specs}.")
    return traced


class _ListDataset(Dataset):
    """A finite dataset of component tuples already computed (a window of a group)."""

    def __init__(self, structure, specs, elements):
        self._elements = list(elements)
        super().__init__(structure, specs, len(self._elements))

    def _stage(self):
        return iter(self._elements)


class _GroupStage(Stage):
    def __init__(self, dataset):
        self._ds, self._up = dataset, dataset._input._stage()
        self._groups, self._sizes, self._out, self._ended = {}, {}, None, False

    def _size(self, key):
        if key not in self._sizes:
            self._sizes[key] = self._ds._window_size(key)
        return self._sizes[key]

    def _reduce(self, key):
        ds = self._ds
        window = _ListDataset(ds._input._structure, ds._input._specs, self._groups.pop(key))
        self._out = _reduced(ds._fn, key, window)._stage()

    def __next__(self):
        while True:
            if self._out is not None:
                item = next(self._out, None)
                if item is not None:
                    return item
                self._out = None
            if self._ended:
                if not self._groups:
                    raise StopIteration
                self._reduce(min(self._groups))
                continue
            try:
                components = next(self._up)
            except StopIteration:
                self._ended = True
                continue
            key = int(self._ds._key(components)[0])
            self._groups.setdefault(key, []).append(components)
            if len(self._groups[key]) >= self._size(key):
                self._reduce(key)


class GroupByWindowDataset(_LazySpec):
    def __init__(self, dataset, key_func, reduce_func, window_size=None,
                 window_size_func=None):
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Dataset.group_by_window: give exactly one of `window_size` and "
                             "`window_size_func`.")
        if not callable(reduce_func):
            raise TypeError(f"Dataset.group_by_window: reduce_func must be a function, got "
                            f"{type(reduce_func).__name__}.")
        self._input, self._what = dataset, "Dataset.group_by_window reduce_func"
        self._key = _key_function(key_func, dataset, "Dataset.group_by_window key_func")
        if window_size is not None:
            size = int(np.asarray(getattr(window_size, "_value", window_size)))
            self._window_size = lambda key: size
        else:
            self._window_size = lambda key: int(np.asarray(getattr(
                window_size_func(_as_tensor(key)), "_value", 0)))
        self._reduce_func, self._lazy = reduce_func, None
        self._fn = lambda key, window: reduce_func(key, window)
        super().__init__(None, [], UNKNOWN, (dataset,))

    def _resolve(self):
        if self.__dict__.get("_lazy") is None:
            with without_recording():
                first = next(self._input._stage(), None)
                spec_window = _ListDataset(self._input._structure, self._input._specs,
                                           [first] if first is not None else [])
                key = 0 if first is None else int(self._key(first)[0])
                out = _reduced(self._fn, key, spec_window)
            self._lazy = (out._structure, list(out._specs))
        return self._lazy

    def _stage(self):
        return _GroupStage(self)


def _as_tensor(key):
    return st.to_tensors(None, (np.array(key, np.int64),))


def _reduced(fn, key, window):
    out = fn(_as_tensor(key), window)
    if not isinstance(out, Dataset):
        raise TypeError(f"Dataset.group_by_window: reduce_func must return a Dataset, got "
                        f"{type(out).__name__}.")
    return out


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries,
                              bucket_batch_sizes, padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """Batches of elements of similar length (see the module docstring)."""
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(b) for b in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(f"len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1, got "
                         f"{len(sizes)} and {len(boundaries)}.")
    if boundaries != sorted(boundaries):
        raise ValueError(f"bucket_boundaries must be sorted, got {boundaries}.")
    length_fn = TracedFunction(element_length_func, dataset._structure, dataset._specs,
                               "bucket_by_sequence_length element_length_func")
    edges = np.array(boundaries, np.int64)

    def bucket_of(components):
        length = int(np.asarray(length_fn(components)[0]))
        if pad_to_bucket_boundary and boundaries and length >= boundaries[-1]:
            raise InvalidArgumentError(f"When pad_to_bucket_boundary=True, elements must have "
                                       f"length < max(bucket_boundaries): got length {length}, "
                                       f"boundaries {boundaries}.")
        return (np.array(np.searchsorted(edges, length, side="right"), np.int64),)

    def batching(key, window):
        bucket = int(key.numpy())
        if no_padding:
            return window.batch(sizes[bucket], drop_remainder=drop_remainder)
        shapes = padded_shapes
        if pad_to_bucket_boundary:
            limit = boundaries[bucket] - 1 if bucket < len(boundaries) else None
            shapes = _boundary_shapes(window, limit)
        return window.padded_batch(sizes[bucket], shapes, padding_values,
                                   drop_remainder=drop_remainder)
    keyed = GroupByWindowDataset.__new__(GroupByWindowDataset)
    _init_keyed(keyed, dataset, bucket_of, batching, lambda key: sizes[int(key)])
    return keyed


def _boundary_shapes(window, limit):
    return st.pack(window._structure, [[limit] + [None] * (s.shape.rank - 1)
                                       for s in window._specs])


def _init_keyed(out, dataset, key, reduce_func, window_size):
    """A GroupByWindowDataset whose key and window size are Python functions of components."""
    out._input, out._what = dataset, "bucket_by_sequence_length"
    out._key, out._window_size = key, window_size
    out._reduce_func = out._fn = reduce_func
    out._lazy = None
    Dataset.__init__(out, None, [], UNKNOWN, (dataset,))


class Reducer:
    """init_func(key) -> state, reduce_func(state, element) -> state, finalize_func(state) ->
    output: how group_by_reducer folds each group (tf.data.experimental.Reducer)."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self.init_func, self.reduce_func, self.finalize_func = init_func, reduce_func, \
            finalize_func


def _folded(dataset, key_fn, reducer):
    """The finalized state of each key's group, in ascending key order (eager values)."""
    states = {}
    with without_recording():
        for components in dataset._stage():
            key = int(key_fn(components)[0])
            element = st.to_tensors(dataset._structure, components)
            state = states[key] if key in states else reducer.init_func(_as_tensor(key))
            states[key] = reducer.reduce_func(state, element)
        return [reducer.finalize_func(states[k]) for k in sorted(states)]


class _FoldStage(Stage):
    def __init__(self, dataset):
        self._ds, self._out = dataset, None

    def __next__(self):
        if self._out is None:
            ds = self._ds
            finals = _folded(ds._input, ds._key, ds._reducer)
            self._out = iter([st.normalize(v, "group_by_reducer finalize_func")[1]
                              for v in finals])
        return next(self._out)


class GroupByReducerDataset(Dataset):
    """One element per key: finalize_func of the key's folded state (each pass folds anew)."""

    def __init__(self, dataset, key_func, reducer):
        if not isinstance(reducer, Reducer):
            raise TypeError(f"group_by_reducer: `reducer` must be a tf.data.experimental."
                            f"Reducer, got {type(reducer).__name__}.")
        self._input, self._reducer = dataset, reducer
        self._key = _key_function(key_func, dataset, "group_by_reducer key_func")
        with without_recording():
            sample = reducer.finalize_func(reducer.init_func(_as_tensor(0)))
        structure, components = st.normalize(sample, "group_by_reducer finalize_func")
        super().__init__(structure, st.specs_of(components), UNKNOWN, (dataset,))

    def _stage(self):
        return _FoldStage(self)


def group_by_reducer(key_func, reducer):
    """A transformation (for `dataset.apply`) folding each key's elements with `reducer`."""
    return lambda dataset: GroupByReducerDataset(dataset, key_func, reducer)
