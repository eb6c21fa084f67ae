"""Batching and reordering: batch, padded_batch, unbatch, rebatch, shuffle, repeat, take, skip,
shard, enumerate, window.

batch(n) stacks n consecutive elements along a new first dimension (the last batch may be short
unless `drop_remainder`); elements of a batch must have equal shapes (padded_batching.py pads
them instead). shuffle(buffer_size) keeps
a buffer of that many elements and outputs a uniformly chosen one, refilling its place from the
input, TensorFlow's buffer semantics: with a buffer at least as large as the dataset this is a
uniform random permutation; smaller buffers only mix nearby elements. A seeded shuffle is
reproducible (and reshuffles each pass differently, but reproducibly, when
`reshuffle_each_iteration`); an unseeded one differs every run.
"""
import itertools

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.ragged_tensor import RaggedTensor
from ..framework.tensor_shape import TensorShape
from ..ops.random.seeded import get_seed
from ..tracing.ragged_spec import RaggedTensorSpec
from ..tracing.signatures import TensorSpec
from . import structure as st
from .sparse_elements import batch_sparse, is_sparse
from .dataset import INFINITE, UNKNOWN, Dataset, Stage, TensorSliceDataset
from .ragged_batching import batched_spec, stack_ragged
from .ragged_rows import RaggedRows

__all__ = ["BatchDataset", "UnbatchDataset", "ShuffleDataset",
           "RepeatDataset", "TakeDataset", "SkipDataset", "ShardDataset", "EnumerateDataset",
           "WindowDataset", "rebatch"]


def _positive(value, what):
    value = int(np.asarray(getattr(value, "_value", value)))
    if value <= 0:
        raise InvalidArgumentError(f"{what} must be greater than zero, got {value}.")
    return value


def _stack(elements, index):
    """Stack a list of component tuples into one tuple of batched arrays."""
    out = []
    for j in range(len(elements[0])):
        parts = [e[j] for e in elements]
        if is_sparse(parts[0]) or isinstance(parts[0], RaggedTensor):
            out.append(batch_sparse(parts, index) if is_sparse(parts[0]) else stack_ragged(parts))
            continue
        first = parts[0].shape
        for k, p in enumerate(parts):
            if p.shape != first:
                raise InvalidArgumentError(
                    f"Dataset.batch: cannot batch tensors with different shapes in component {j}. "
                    f"First element had shape {list(first)} and element {k} had shape "
                    f"{list(p.shape)} (batch {index}); use padded_batch, or ragged batching.")
        out.append(np.stack(parts))
    return tuple(out)


def _count(card, size, drop):
    if card < 0:
        return card
    return card // size if drop else -(-card // size)


# -- batch ---------------------------------------------------------------------------------------
class _BatchStage(Stage):
    def __init__(self, upstream, size, drop, combine):
        self._up, self._size, self._drop, self._combine = upstream, size, drop, combine
        self._index = 0

    def __next__(self):
        elements = list(itertools.islice(self._up, self._size))
        if not elements or (self._drop and len(elements) < self._size):
            raise StopIteration
        index, self._index = self._index, self._index + 1
        return self._combine(elements, index)


class _ColumnBatchStage(Stage):
    """Batches of a one-component source that hands out whole columns (`take_column(n)`,
    as TFRecordDataset's records do): no element is built one at a time."""

    def __init__(self, upstream, size, drop):
        self._up, self._size, self._drop = upstream, size, drop

    def __next__(self):
        column = self._up.take_column(self._size)
        if not len(column) or (self._drop and len(column) < self._size):
            raise StopIteration
        return (column,)


class _RowBatchStage(Stage):
    """Batches gathered straight from source rows (see dataset.py, Fast path)."""

    def __init__(self, arrays, order, size, drop):
        self._arrays, self._order, self._size = arrays, order, size
        n = len(order)
        self._stops = range(0, n - size + 1 if drop else n, size)
        self._next = 0
        contiguous = len(order) > 0 and order[0] == 0 and np.all(np.diff(order) == 1)
        self._slice = bool(contiguous)

    def __next__(self):
        if self._next >= len(self._stops):
            raise StopIteration
        start = self._stops[self._next]
        self._next += 1
        if self._slice:
            return tuple(a[start:start + self._size] for a in self._arrays)
        index = self._order[start:start + self._size]
        return tuple(a[index] for a in self._arrays)


class BatchDataset(Dataset):
    def __init__(self, dataset, batch_size, drop_remainder=False):
        self._input = dataset
        self._size = _positive(batch_size, "Dataset.batch: batch_size")
        self._drop = bool(drop_remainder)
        lead = self._size if self._drop else None
        specs = [batched_spec(s, lead) for s in dataset._specs]
        super().__init__(dataset._structure, specs,
                         _count(dataset._cardinality, self._size, self._drop), (dataset,))

    def _stage(self):
        rows = self._input._rows()
        if rows is not None and not any(a.dtype == object and a.size and is_sparse(a.flat[0])
                                        for a in rows[0]):
            arrays, order = rows
            return _RowBatchStage(arrays, np.asarray(order()), self._size, self._drop)
        stage = self._input._stage()
        if hasattr(stage, "take_column"):
            return _ColumnBatchStage(stage, self._size, self._drop)
        return _BatchStage(stage, self._size, self._drop, _stack)


# -- unbatch and rebatch --------------------------------------------------------------------------
class _UnbatchStage(Stage):
    def __init__(self, upstream):
        self._up, self._rows, self._next = upstream, None, 0

    def __next__(self):
        while self._rows is None or self._next >= len(self._rows[0]):
            self._rows, self._next = tuple(RaggedRows(c) if isinstance(c, RaggedTensor) else c
                                           for c in next(self._up)), 0
            sizes = {len(c) for c in self._rows}
            if len(sizes) > 1:
                raise InvalidArgumentError("Dataset.unbatch: the components of an element have "
                                           f"different first dimensions {sorted(sizes)}.")
        i, self._next = self._next, self._next + 1
        return tuple(c[i, ...] for c in self._rows)


class UnbatchDataset(Dataset):
    def __init__(self, dataset):
        for spec in dataset._specs:
            if spec.shape.rank == 0:
                raise ValueError("Dataset.unbatch: every component must have a first dimension; "
                                 "got a scalar.")
        self._input = dataset
        specs = [_row_spec(s) for s in dataset._specs]
        card = INFINITE if dataset._cardinality == INFINITE else UNKNOWN
        super().__init__(dataset._structure, specs, card, (dataset,))

    def _stage(self):
        return _UnbatchStage(self._input._stage())


def _row_spec(spec):
    """The spec of one row of a batch of `spec`: a ragged batch's rows have one ragged rank less
    (ragged rank 0 where the batch had 1, as TensorFlow's element_spec says)."""
    if isinstance(spec, RaggedTensorSpec):
        return RaggedTensorSpec(spec.shape[1:], spec.dtype, spec.ragged_rank - 1,
                                spec.row_splits_dtype)
    return TensorSpec(spec.shape[1:] if spec.shape.rank is not None else TensorShape(None),
                      spec.dtype)


class _SizesBatchStage(_BatchStage):
    def __init__(self, upstream, sizes, drop):
        super().__init__(upstream, sizes[0], drop, _stack)
        self._sizes = itertools.cycle(sizes)

    def __next__(self):
        self._size = next(self._sizes)
        return super().__next__()


class _Rebatch(Dataset):
    def __init__(self, dataset, sizes, drop):
        self._input, self._sizes, self._drop = UnbatchDataset(dataset), sizes, drop
        lead = sizes[0] if drop and len(set(sizes)) == 1 else None
        specs = [TensorSpec(TensorShape([lead]).concatenate(s.shape), s.dtype)
                 for s in self._input._specs]
        super().__init__(dataset._structure, specs, UNKNOWN, (dataset,))

    def _stage(self):
        return _SizesBatchStage(self._input._stage(), self._sizes, self._drop)


def rebatch(dataset, batch_size, drop_remainder=False):
    """Re-split a batched dataset into batches of `batch_size` (a list cycles through sizes)."""
    sizes = [_positive(s, "Dataset.rebatch: batch_size") for s in np.asarray(
        getattr(batch_size, "_value", batch_size)).reshape(-1)]
    return _Rebatch(dataset, sizes, bool(drop_remainder))


# -- shuffle --------------------------------------------------------------------------------------
def buffer_order(source, buffer_size, rng):
    """The order TensorFlow's shuffle buffer gives the items of `source` (an index array)."""
    n = len(source)
    if buffer_size >= n:
        return source[rng.permutation(n)]
    out = np.empty(n, source.dtype)
    buffer, feed = list(source[:buffer_size]), buffer_size
    draws = rng.random(n)
    for k in range(n):
        i = int(draws[k] * len(buffer))
        out[k] = buffer[i]
        if feed < n:
            buffer[i] = source[feed]
            feed += 1
        else:
            buffer[i] = buffer[-1]
            buffer.pop()
    return out


def _reordered_rows(dataset, reorder):
    """The rows of `dataset` (see Dataset._rows) with each pass's order of rows (an int array)
    passed through `reorder`; None when it has none."""
    rows = dataset._rows()
    if rows is None:
        return None
    arrays, order = rows
    return arrays, lambda: reorder(np.asarray(order()))


class _ShuffleStage(Stage):
    def __init__(self, upstream, size, rng):
        self._up, self._size, self._rng, self._buffer, self._open = upstream, size, rng, [], True

    def __next__(self):
        while self._open and len(self._buffer) < self._size:
            try:
                self._buffer.append(next(self._up))
            except StopIteration:
                self._open = False
        if not self._buffer:
            raise StopIteration
        i = int(self._rng.integers(len(self._buffer)))
        out = self._buffer[i]
        self._buffer[i] = self._buffer[-1]
        self._buffer.pop()
        return out


class ShuffleDataset(Dataset):
    def __init__(self, dataset, buffer_size, seed=None, reshuffle_each_iteration=True):
        self._input = dataset
        self._size = _positive(buffer_size, "Dataset.shuffle: buffer_size")
        pair = get_seed(seed)
        self._seeds = None if pair[0] is None else list(pair)
        if self._seeds is None and not reshuffle_each_iteration:
            self._seeds = [int(np.random.default_rng().integers(2 ** 31)), 0]
        self._reshuffle = bool(reshuffle_each_iteration)
        self._passes = 0
        super().__init__(dataset._structure, dataset._specs, dataset._cardinality, (dataset,))

    def _rng(self):
        epoch, self._passes = self._passes, self._passes + 1
        if self._seeds is None:
            return np.random.default_rng()
        return np.random.default_rng(self._seeds + ([epoch] if self._reshuffle else []))

    def _rows(self):
        return _reordered_rows(self._input, lambda order: buffer_order(order, self._size,
                                                                       self._rng()))

    def _stage(self):
        return _ShuffleStage(self._input._stage(), self._size, self._rng())


# -- repeat, take, skip, shard, enumerate ------------------------------------------------------------
class _RepeatStage(Stage):
    def __init__(self, dataset, count):
        self._ds, self._left, self._stage, self._empty = dataset, count, None, True

    def __next__(self):
        while True:
            if self._stage is None:
                if self._left == 0:
                    raise StopIteration
                self._left -= 1
                self._stage, self._empty = self._ds._stage(), True
            try:
                out = next(self._stage)
                self._empty = False
                return out
            except StopIteration:
                self._stage = None
                if self._empty:  # an empty pass: repeating forever would never yield
                    raise


class RepeatDataset(Dataset):
    def __init__(self, dataset, count=None):
        self._input = dataset
        count = -1 if count is None else int(np.asarray(getattr(count, "_value", count)))
        self._count = count
        card = dataset._cardinality
        if count < 0:
            card = 0 if card == 0 else INFINITE
        elif card >= 0:
            card *= count
        super().__init__(dataset._structure, dataset._specs, card, (dataset,))

    def _rows(self):
        rows = self._input._rows()
        if rows is None or self._count < 0:
            return None
        arrays, order = rows
        return arrays, lambda: np.concatenate([np.asarray(order()) for _ in range(self._count)]
                                              or [np.arange(0)]).astype(np.int64)

    def _stage(self):
        return _RepeatStage(self._input, self._count)


def _limit(value):
    return int(np.asarray(getattr(value, "_value", value)))


class TakeDataset(Dataset):
    def __init__(self, dataset, count):
        self._input, self._count = dataset, _limit(count)
        card = dataset._cardinality
        if self._count >= 0:
            card = self._count if card in (INFINITE,) else (
                min(card, self._count) if card >= 0 else UNKNOWN)
        super().__init__(dataset._structure, dataset._specs, card, (dataset,))

    def _rows(self):
        stop = None if self._count < 0 else self._count
        return _reordered_rows(self._input, lambda order: order[:stop])

    def _stage(self):
        stop = None if self._count < 0 else self._count
        return iter(itertools.islice(self._input._stage(), stop))


class SkipDataset(Dataset):
    def __init__(self, dataset, count):
        self._input, self._count = dataset, _limit(count)
        card = dataset._cardinality
        if card >= 0:
            card = 0 if self._count < 0 else max(0, card - self._count)
        super().__init__(dataset._structure, dataset._specs, card, (dataset,))

    def _rows(self):
        rows = self._input._rows()
        if rows is None:
            return None
        arrays, order = rows
        start = len(arrays[0]) if self._count < 0 else self._count
        return arrays, lambda: np.asarray(order())[start:]

    def _stage(self):
        stage = self._input._stage()
        return iter(itertools.islice(stage, None if self._count < 0 else self._count, None))


class ShardDataset(Dataset):
    def __init__(self, dataset, num_shards, index):
        num_shards, index = _limit(num_shards), _limit(index)
        if num_shards < 1 or not 0 <= index < num_shards:
            raise InvalidArgumentError(f"Dataset.shard: need num_shards >= 1 and 0 <= index < "
                                       f"num_shards, got num_shards={num_shards}, index={index}.")
        self._input, self._n, self._i = dataset, num_shards, index
        card = dataset._cardinality
        if card >= 0:
            card = len(range(index, card, num_shards))
        super().__init__(dataset._structure, dataset._specs, card, (dataset,))

    def _stage(self):
        return iter(itertools.islice(self._input._stage(), self._i, None, self._n))


class _EnumerateStage(Stage):
    def __init__(self, upstream, start):
        self._up, self._n = upstream, start

    def __next__(self):
        components = next(self._up)
        i, self._n = self._n, self._n + 1
        return (np.array(i, np.int64),) + components


class EnumerateDataset(Dataset):
    def __init__(self, dataset, start=0):
        self._input, self._start = dataset, _limit(start)
        super().__init__((None, dataset._structure), [TensorSpec([], "int64")] + dataset._specs,
                         dataset._cardinality, (dataset,))

    def _stage(self):
        return _EnumerateStage(self._input._stage(), self._start)


# -- window ----------------------------------------------------------------------------------------
class _WindowStage(Stage):
    def __init__(self, dataset):
        self._ds, self._up, self._buffer, self._done = dataset, dataset._input._stage(), [], False

    def __next__(self):
        ds = self._ds
        reach = (ds._size - 1) * ds._stride + 1
        while not self._done and len(self._buffer) < reach:
            try:
                self._buffer.append(next(self._up))
            except StopIteration:
                self._done = True
        window = self._buffer[:reach:ds._stride]
        if not window or (ds._drop and len(window) < ds._size):
            raise StopIteration
        extra = ds._shift - len(self._buffer)
        self._buffer = self._buffer[ds._shift:]
        for _ in range(max(0, extra)):  # elements between windows that were never buffered
            if self._done or next(self._up, None) is None:
                self._done = True
                break
        return tuple(_window_dataset(ds._input, window, j) for j in range(len(ds._input._specs)))


def _window_dataset(source, window, j):
    return TensorSliceDataset(np.stack([w[j] for w in window]))


class WindowDataset(Dataset):
    def __init__(self, dataset, size, shift=None, stride=1, drop_remainder=False):
        self._input = dataset
        self._size = _positive(size, "Dataset.window: size")
        self._shift = _positive(self._size if shift is None else shift, "Dataset.window: shift")
        self._stride = _positive(stride, "Dataset.window: stride")
        self._drop = bool(drop_remainder)
        specs = [st.DatasetSpec(TensorSpec(s.shape, s.dtype)) for s in dataset._specs]
        super().__init__(dataset._structure, specs, UNKNOWN, (dataset,))

    def _stage(self):
        return _WindowStage(self)
