"""The distributed datasets of a one-process MirroredStrategy with N replicas: every element is
made of PerReplica values (values.py), eagerly and inside `tf.function`.

`strategy.experimental_distribute_dataset(dataset)` splits each global batch of B rows along the
first axis of every component: replica r gets rows [start_r, start_r + size_r) with

    size_r = B // N + (1 if r < B mod N else 0),   start_r = r * (B // N) + min(r, B mod N)

(np.array_split's rule: the first B mod N replicas get a row more, and a replica may get none);
a scalar component goes to every replica. `distribute_datasets_from_function` hands consecutive
elements to the replicas in turn (a replica past the end gets an empty batch).

Eagerly the rows are cut from the arrays. Inside a traced function B is known only when the
function runs, so the same rule is built from `tf.shape(x)[0]` and strided slices:

- `for x in dist_dataset:` inside a `tf.function` (the dataset passed in or captured: it is
  traced by identity and keeps its own dataset) iterates a new pass of the dataset each time
  the function runs, unrolled while tracing over the dataset's known number of elements (as
  data/iterator.py unrolls a Python loop; TensorFlow builds a while loop, which here would have
  to carry per-replica values, which loops do not take), so the results are TensorFlow's;
- `next(iterator)` / `iterator.get_next()` cut the next element; an iterator made outside and
  passed to the function is a composite value of its dataset iterator's variant (data/
  variants.py), so each run takes the caller's iterator's next element, as TensorFlow's does.
"""
import numpy as np

from ..data.iterator import UNROLL_LIMIT
from ..framework.context import state
from ..framework.errors import OutOfRangeError
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..ops.creation_ops import shape as shape_of
from ..ops.math_ops import minimum
from ..util import nest
from .input import DistributedDataset, local_rows
from .values import PerReplica

__all__ = ["LocalDistributedDataset", "LocalDistributedIterator"]


def split_batch(element, n):
    """A global batch's components each split into n parts: PerReplica leaves."""
    def parts(component):
        if not (isinstance(component, Tensor) or hasattr(component, "shape")):
            return component
        array = array_of(component) if isinstance(component, Tensor) else np.asarray(component)
        if array is None:
            return _split_symbolic(component, n)
        if np.ndim(array) == 0:
            return PerReplica([convert_to_tensor(array)] * n)
        return PerReplica([convert_to_tensor(array[local_rows(len(array), r, n)])
                           for r in range(n)])
    return nest.map_structure(parts, element)


def _split_symbolic(tensor, n):
    """The rows of a graph tensor, split by the module docstring's rule when the graph runs."""
    if tensor.shape.rank == 0:
        return PerReplica([tensor] * n)
    rows = shape_of(tensor)[0]
    base, extra = rows // n, rows % n
    starts = [r * base + minimum(r, extra) for r in range(n)] + [rows]
    return PerReplica([tensor[starts[r]:starts[r + 1]] for r in range(n)])


def _empty_like(element):
    return nest.map_structure(lambda c: convert_to_tensor(np.zeros(
        (0,) + tuple(np.shape(array_of(c) if isinstance(c, Tensor) else c))[1:],
        np.asarray(array_of(c) if isinstance(c, Tensor) else c).dtype)), element)


def _components(inner):
    return inner._nest_components() if hasattr(type(inner), "_nest_components") else []


def _rebuild(inner, components):
    return inner._nest_rebuild(components) if components else inner


def _token(outer, inner):
    token = getattr(inner, "_trace_token", None)
    return (type(outer).__name__, outer._n, outer._split,
            token() if token is not None else ("object", id(inner)))


class LocalDistributedIterator:
    """Per-replica elements of a local distributed dataset (`next()`, `get_next()`,
    `get_next_as_optional()`)."""

    def __init__(self, iterator, n, split):
        self._iterator, self._n, self._split = iterator, n, split
        self._traced = 0  # elements taken while tracing (a loop over an iterator argument)

    def __iter__(self):
        return self

    def __next__(self):
        if state.graph is not None:
            self._traced += 1
            if self._traced > UNROLL_LIMIT:
                raise TypeError(
                    f"A distributed iterator inside tf.function gave more than {UNROLL_LIMIT} "
                    "elements while tracing: a `for` loop over an iterator passed in has no "
                    "known end here. Loop over the distributed dataset instead (`for x in "
                    "dist_dataset`), or call next(iterator) a known number of times.")
        if self._split:
            return split_batch(next(self._iterator), self._n)
        elements = [next(self._iterator)]
        for _ in range(self._n - 1):
            try:
                elements.append(next(self._iterator))
            except StopIteration:
                elements.append(_empty_like(elements[0]))
        flats = [nest.flatten(e) for e in elements]
        return nest.pack_sequence_as(elements[0], [PerReplica(p) for p in zip(*flats)])

    def get_next(self):
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError("End of sequence: the distributed iterator has no more "
                                  "elements.") from None

    @property
    def element_spec(self):
        return getattr(self._iterator, "element_spec", None)

    # -- a composite value of the iterator it wraps (tf.function arguments) -------------------
    def _nest_components(self):
        return _components(self._iterator)

    def _nest_rebuild(self, components):
        return LocalDistributedIterator(_rebuild(self._iterator, components), self._n,
                                        self._split)

    def _trace_token(self):
        return _token(self, self._iterator)


class LocalDistributedDataset(DistributedDataset):
    """A dataset whose elements are PerReplica values (see the module docstring); element_spec,
    cardinality and reduce are a DistributedDataset's."""

    def __init__(self, dataset, n, split):  # replicas in this process: no rank or size
        self._dataset, self._n, self._split = dataset, n, split

    def __iter__(self):
        return LocalDistributedIterator(iter(self._dataset), self._n, self._split)

    def __repr__(self):
        return (f"<DistributedDataset over {self._n} replicas of "
                f"{type(self._dataset).__name__}>")

