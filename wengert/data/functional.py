"""Transformations that run user functions: map, filter, flat_map, interleave, scan, reduce.

As in tf.data, `map`, `filter`, `scan` and `reduce` trace their function once, with the
element's TensorSpecs, into a graph function (wengert's `tf.function`): Python side effects run
once, at tracing, and each element runs the compiled graph. A tuple element is passed as
positional arguments (`lambda x, y: ...`), anything else as one argument. `flat_map` and
`interleave` call their function eagerly, since it returns a dataset.

`map(num_parallel_calls=n)` (or AUTOTUNE) runs up to n calls at once on a thread pool (NumPy
releases the GIL in its kernels), handing results back in input order unless
`deterministic=False`. An exception from the function is raised for that element; the next
`next()` goes on with the next one.
"""
import collections
import concurrent.futures
import os

import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.sparse_tensor import SparseTensorSpec
from ..framework.ragged_tensor import RaggedTensor
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..control_flow.cond import cond
from ..control_flow.while_loop import while_loop
from ..tracing.function import function
from ..tracing.ragged_spec import RaggedTensorSpec
from ..tracing.signatures import TensorSpec
from ..util import nest
from . import structure as st
from .dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset, Stage
from .fed_values import fed_inputs
from .iterator import without_recording
from .sparse_elements import is_sparse, unwrap

__all__ = ["TracedFunction", "MapDataset", "FilterDataset",
           "InterleaveDataset", "ScanDataset", "reduce_dataset"]


def _call(fn, element):
    return fn(*element) if type(element) is tuple else fn(element)


def _graph_leaves(value, what):
    """(structure, leaves as tensors) of what a traced function returned."""
    if isinstance(value, Dataset):
        raise TypeError(f"{what} returned a Dataset; use flat_map or interleave to produce "
                        "datasets from elements.")
    if value is None:
        raise TypeError(f"{what} returned None; it must return a tensor or a structure "
                        "(tuple, dict) of tensors.")
    if type(value) is list:  # a list of components is a tuple, as tf.data takes it
        value = tuple(value)
    structure = st.structure_of(value)
    leaves = []
    for leaf in st._flatten(value):
        if leaf is None:
            raise TypeError(f"{what} returned a structure holding None ({value!r:.80}).")
        if is_sparse(leaf) or isinstance(leaf, RaggedTensor):  # rebuilt from parts when called
            leaves.append(leaf)
            continue
        try:
            leaves.append(convert_to_tensor(leaf))
        except (TypeError, ValueError) as err:
            raise TypeError(f"{what} returned {type(leaf).__name__} {leaf!r:.60}, which is not "
                            f"a tensor: {err}") from None
    return structure, leaves


class TracedFunction:
    """`fn` traced once for elements of (structure, specs); call with components."""

    def __init__(self, fn, structure, specs, what, extra=None):
        if not callable(fn):
            raise TypeError(f"{what}: expected a function, got {type(fn).__name__}.")
        self.what = what
        self.out_structure = None
        n = len(specs)

        def flat_fn(*flat):
            element = st.pack(structure, flat[:n])
            if extra is not None:  # scan/reduce: (state, element)
                args = (st.pack(extra[0], flat[n:]), element)
                out = fn(*args)
            else:
                out = _call(fn, element)
            self.out_structure, leaves = _graph_leaves(out, what)
            return leaves
        signature = [_spec(s) for s in specs]
        if extra is not None:
            signature += [_spec(s) for s in extra[1]]
        flat_fn.__name__ = getattr(fn, "__name__", "dataset_fn").replace("<lambda>", "lambda")
        self._concrete = function(flat_fn, input_signature=signature).get_concrete_function()
        self.out_specs = [_spec(t) for t in self._concrete.structured_outputs]

    def __call__(self, components):
        flat = []
        for c in components:  # sparse and ragged components enter as their component tensors
            flat.extend(unwrap(c)._nest_components() if is_sparse(c) else
                        c._nest_components() if isinstance(c, RaggedTensor) else [Tensor(c)])
        outs = self._concrete._call(flat)
        return tuple(o if is_sparse(o) or isinstance(o, RaggedTensor) else np.asarray(array_of(o))
                     for o in outs)


def _spec(t):
    """The spec of a traced input or output: a SparseTensorSpec or RaggedTensorSpec stays one."""
    if isinstance(t, SparseTensorSpec) or is_sparse(t):
        return SparseTensorSpec(t.shape, t.dtype)
    if isinstance(t, (RaggedTensorSpec, RaggedTensor)):
        return t if isinstance(t, RaggedTensorSpec) else RaggedTensorSpec.from_value(t)
    return TensorSpec(t.shape, t.dtype)


def _note(exc, message):
    """`exc` re-raised with `message` in front, keeping its type where that is possible."""
    try:
        return type(exc)(f"{message}: {exc}")
    except Exception:  # noqa: BLE001 - an exception type with another constructor
        return exc


# -- map -----------------------------------------------------------------------------------------
class _MapStage(Stage):
    def __init__(self, upstream, fn):
        self._up, self._fn, self._index = upstream, fn, 0

    def __next__(self):
        components = next(self._up)
        index, self._index = self._index, self._index + 1
        try:
            return self._fn(components)
        except StopIteration:
            raise
        except Exception as exc:  # noqa: BLE001 - named and re-raised
            raise _note(exc, f"{self._fn.what} failed on element {index}") from exc


class _ParallelMapStage(Stage):
    def __init__(self, upstream, fn, workers, ordered):
        self._up, self._fn, self._ordered = upstream, fn, ordered
        self._pool = concurrent.futures.ThreadPoolExecutor(workers)
        self._window, self._pending, self._done = workers * 2, collections.deque(), False

    def _fill(self):
        while not self._done and len(self._pending) < self._window:
            try:
                components = next(self._up)
            except StopIteration:
                self._done = True
                break
            self._pending.append(self._pool.submit(self._fn, components))

    def __next__(self):
        self._fill()
        if not self._pending:
            self._pool.shutdown(wait=False)
            raise StopIteration
        future = self._pending.popleft()
        if not self._ordered:
            done = [f for f in self._pending if f.done()]
            if not future.done() and done:
                self._pending.appendleft(future)
                self._pending.remove(done[0])
                future = done[0]
        return future.result()

    def __del__(self):
        self._pool.shutdown(wait=False)


class MapDataset(Dataset):
    def __init__(self, dataset, fn, num_parallel_calls=None, deterministic=None):
        self._input = dataset
        self._fn = TracedFunction(fn, dataset._structure, dataset._specs, "Dataset.map function")
        if num_parallel_calls is not None and num_parallel_calls != AUTOTUNE and \
                int(num_parallel_calls) < 1:
            raise InvalidArgumentError(f"Dataset.map: num_parallel_calls must be positive or "
                                       f"AUTOTUNE, got {num_parallel_calls}.")
        self._workers = 1 if num_parallel_calls is None else (
            os.cpu_count() or 2 if num_parallel_calls == AUTOTUNE else int(num_parallel_calls))
        self._ordered = deterministic is not False
        super().__init__(self._fn.out_structure, self._fn.out_specs, dataset._cardinality,
                         (dataset,))

    def _stage(self):
        if self._workers > 1:
            return _ParallelMapStage(self._input._stage(), self._fn, self._workers, self._ordered)
        return _MapStage(self._input._stage(), self._fn)


# -- filter ---------------------------------------------------------------------------------------
class _FilterStage(Stage):
    def __init__(self, upstream, predicate):
        self._up, self._predicate = upstream, predicate

    def __next__(self):
        while True:
            components = next(self._up)
            if bool(self._predicate(components)[0]):
                return components


class FilterDataset(Dataset):
    def __init__(self, dataset, predicate):
        self._input = dataset
        self._predicate = TracedFunction(predicate, dataset._structure, dataset._specs,
                                         "Dataset.filter predicate")
        specs = self._predicate.out_specs
        if len(specs) != 1 or specs[0].dtype.name != "bool" or specs[0].shape.rank not in (0,
                                                                                           None):
            raise ValueError(f"Dataset.filter: the predicate must return a scalar bool tensor, "
                             f"got {specs}.")
        card = UNKNOWN if dataset._cardinality != INFINITE else INFINITE
        super().__init__(dataset._structure, dataset._specs, card, (dataset,))

    def _stage(self):
        return _FilterStage(self._input._stage(), self._predicate)


# -- flat_map and interleave ------------------------------------------------------------------------
def _dataset_of(fn, structure, components, what):
    out = _call(fn, st.to_tensors(structure, components))
    if not isinstance(out, Dataset):
        raise TypeError(f"{what} must return a Dataset, got {type(out).__name__}.")
    return out


class _LazySpec(Dataset):
    """A dataset whose element spec is known once its function has run on a first element
    (reading `_specs` or `_structure` runs it, once)."""

    def _resolve(self):
        if self.__dict__.get("_lazy") is None:
            first = next(self._input._stage(), None)
            if first is None:
                self._lazy = (None, [TensorSpec(TensorShape(None), "float32")])
            else:
                ds = _dataset_of(self._fn, self._input._structure, first, self._what)
                self._lazy = (ds._structure, list(ds._specs))
        return self._lazy

    @property
    def _specs(self):
        return self._resolve()[1]

    @_specs.setter
    def _specs(self, value):
        pass  # known only from the function's first dataset

    @property
    def _structure(self):
        return self._resolve()[0]

    @_structure.setter
    def _structure(self, value):
        pass


class _InterleaveStage(Stage):
    """TensorFlow's order: `cycle_length` slots visited in turn, `block_length` elements from
    each; an empty slot is filled with the next input element's dataset when its turn comes,
    and a dataset that ends empties its slot and passes the turn on."""

    def __init__(self, dataset):
        self._ds, self._up = dataset, dataset._input._stage()
        self._cycle = [None] * dataset._cycle_length
        self._turn, self._taken, self._exhausted = 0, 0, False

    def _wrap(self, stage):
        return stage

    def _fill(self, turn):
        try:
            components = next(self._up)
        except StopIteration:
            self._exhausted = True
            return
        ds = _dataset_of(self._ds._fn, self._ds._input._structure, components, self._ds._what)
        self._cycle[turn] = self._wrap(ds._stage())

    def _advance(self):
        self._taken, self._turn = 0, (self._turn + 1) % len(self._cycle)

    def __next__(self):
        while True:
            if self._exhausted and all(slot is None for slot in self._cycle):
                raise StopIteration
            if self._cycle[self._turn] is None and not self._exhausted:
                self._fill(self._turn)
            slot = self._cycle[self._turn]
            if slot is None:
                self._advance()
                continue
            try:
                out = next(slot)
            except StopIteration:
                self._cycle[self._turn] = None
                self._advance()
                continue
            self._taken += 1
            if self._taken >= self._ds._block_length:
                self._advance()
            return out


class InterleaveDataset(_LazySpec):
    """flat_map is interleave with cycle_length 1."""

    def __init__(self, dataset, fn, cycle_length=1, block_length=1, what="Dataset.flat_map"):
        if not callable(fn):
            raise TypeError(f"{what}: expected a function, got {type(fn).__name__}.")
        self._input, self._fn, self._what = dataset, fn, f"{what} function"
        if cycle_length in (None, AUTOTUNE):
            cycle_length = os.cpu_count() or 2
        if int(cycle_length) < 1 or int(block_length) < 1:
            raise InvalidArgumentError(f"{what}: cycle_length and block_length must be positive, "
                                       f"got {cycle_length} and {block_length}.")
        self._cycle_length, self._block_length = int(cycle_length), int(block_length)
        self._lazy = None
        super().__init__(None, [], UNKNOWN, (dataset,))

    def _stage(self):
        return _InterleaveStage(self)


# -- scan and reduce --------------------------------------------------------------------------------
def _state_function(fn, dataset, initial_state, what, scan):
    """A traced (state, element) function whose new state keeps the initial state's structure
    and dtypes; dimensions that change are relaxed to None and the function traced again."""
    state_structure, state = st.normalize(initial_state, what)
    state_specs = st.specs_of(state)
    for _ in range(2):
        traced = TracedFunction(fn, dataset._structure, dataset._specs, what,
                                extra=(state_structure, state_specs))
        out_structure, out_specs = traced.out_structure, traced.out_specs
        if scan:
            if not (isinstance(out_structure, tuple) and len(out_structure) == 2):
                raise TypeError(f"{what} must return a pair (new_state, output_element).")
            new_structure = out_structure[0]
        else:
            new_structure = out_structure
        st.check_same_structure(state_structure, new_structure,
                                f"{what}: the new state must match the initial state")
        new_specs = out_specs[:len(state_specs)]
        for old, new in zip(state_specs, new_specs):
            if old.dtype is not new.dtype:
                raise TypeError(f"{what}: the new state has dtype {new.dtype.name} where the "
                                f"initial state has {old.dtype.name}.")
        if all(o.shape.is_compatible_with(n.shape) for o, n in zip(state_specs, new_specs)):
            return traced, state_structure, state
        state_specs = [st.relax(o, n) for o, n in zip(state_specs, new_specs)]
    raise TypeError(f"{what}: the state's shape keeps changing.")


class _ScanStage(Stage):
    def __init__(self, dataset):
        self._ds, self._up, self._state = dataset, dataset._input._stage(), dataset._state

    def __next__(self):
        out = self._ds._fn(next(self._up) + self._state)
        n = self._ds._state_size
        self._state = out[:n]
        return out[n:]


class ScanDataset(Dataset):
    def __init__(self, dataset, initial_state, scan_func):
        self._input = dataset
        self._fn, state_structure, self._state = _state_function(
            scan_func, dataset, initial_state, "Dataset.scan function", scan=True)
        self._state_size = len(self._state)
        out_structure = self._fn.out_structure[1]
        super().__init__(out_structure, self._fn.out_specs[self._state_size:],
                         dataset._cardinality, (dataset,))

    def _stage(self):
        return _ScanStage(self)


def reduce_dataset(dataset, initial_state, reduce_func):
    """The final state of folding `reduce_func(state, element)` over the dataset."""
    if fed_inputs(dataset) or any(_is_symbolic(leaf) for leaf in nest.flatten(initial_state)):
        return _reduce_in_graph(dataset, initial_state, reduce_func)
    fn, structure, state = _state_function(reduce_func, dataset, initial_state,
                                           "Dataset.reduce function", scan=False)
    with without_recording():
        for components in dataset._stage():
            state = fn(components + state)
    return st.to_tensors(structure, state)


def _is_symbolic(leaf):
    return isinstance(leaf, Tensor) and array_of(leaf) is None


def _reduce_in_graph(dataset, initial_state, reduce_func):
    """reduce inside a traced function whose initial state is symbolic (TensorFlow builds a
    ReduceDataset op): a while_loop over the dataset's optionals, the state its loop
    variables, each element folded in behind a cond on has_value."""
    state = nest.map_structure(convert_to_tensor, initial_state)
    iterator = iter(dataset)

    def more(has_value, *flat_state):
        return has_value

    def fold(has_value, *flat_state):
        optional = iterator.get_next_as_optional()
        current = nest.pack_sequence_as(state, list(flat_state))
        folded = cond(optional.has_value(),
                      lambda: nest.flatten(reduce_func(current, optional._value_or_zeros())),
                      lambda: list(flat_state))
        return [optional.has_value()] + list(folded)
    final = while_loop(more, fold, [convert_to_tensor(True)] + nest.flatten(state))
    return nest.pack_sequence_as(state, list(final[1:]))
