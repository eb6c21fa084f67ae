"""`Dataset`: TensorFlow's `tf.data.Dataset`, an input pipeline of elements run in Python.

A dataset is a description, not data: iterating it (`for x in ds`, `iter(ds)`) builds a chain of
stage iterators, one per transformation, that pull elements from the stage below on demand. An
element travels as its components (structure.py) and reaches the user as tensors. Iterating
again starts a new pass (shuffles reshuffle, generators restart). A stage whose user function
fails for one element raises that error from `next()` and stays usable: the next call goes on
with the next element, as TensorFlow's iterators do.

This file holds the base class and the sources (from_tensor_slices, from_tensors, range,
from_generator, zip, concatenate); methods.py installs the transformations as methods,
and iterator.py defines iteration (eagerly, and inside `tf.function`).

Fast path. `from_tensor_slices` followed by shuffle/take/skip/repeat and then `batch` never builds
single elements: those stages compute the order of the source rows (`_rows()`: the arrays and a
function giving one pass's row indices), and `batch` gathers each batch with one NumPy indexing
per component, which costs what slicing arrays by hand costs.
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.sparse_tensor import SparseTensorSpec
from ..framework.ragged_tensor import RaggedTensor
from ..framework.tensor import constant
from ..framework.tensor_shape import TensorShape
from ..tracing.ragged_spec import RaggedTensorSpec
from ..tracing.signatures import TensorSpec
from ..util import nest
from . import structure as st
from .ragged_rows import ragged_component, ragged_source
from .iterator import make_iterator, numpy_iterator
from .options import Options
from .sparse_elements import is_sparse, sparse_rows, sparse_spec

__all__ = ["Dataset", "INFINITE", "UNKNOWN", "AUTOTUNE", "Options", "Stage"]

# fed_sources.py installs here the makers of datasets over graph tensors (a TF 1 graph's
# placeholders, a traced function's tensors): each returns one when its arguments hold graph
# tensors, else None. FED_SOURCE: from_tensor_slices / from_tensors; FED_RANGE: range.
FED_SOURCE = []
FED_RANGE = []

INFINITE = -1   # tf.data.INFINITE_CARDINALITY
UNKNOWN = -2    # tf.data.UNKNOWN_CARDINALITY
AUTOTUNE = -1   # tf.data.AUTOTUNE


class Stage:
    """One pass of one dataset: `__next__` returns the next element's components."""

    def __iter__(self):
        return self

    def __next__(self):
        raise StopIteration


class Dataset(st.DatasetLike):
    """A sequence of elements (nested structures of tensors). Build one with a source
    (`from_tensor_slices`, `range`, ...), transform it (`map`, `shuffle`, `batch`, ...), and
    iterate it, or pass it to Keras `fit`."""

    def __init__(self, structure, specs, cardinality, inputs=()):
        self._structure = structure
        self._specs = list(specs)
        self._cardinality = int(cardinality)
        self._inputs = tuple(inputs)
        self._options = None

    # -- what it is -----------------------------------------------------------------------------
    @property
    def element_spec(self):
        """The structure of an element, with a TensorSpec (dtype, shape) per component."""
        return st.element_spec(self._structure, self._specs)

    @property
    def _type_spec(self):
        return st.DatasetSpec(self.element_spec)

    def cardinality(self):
        """The number of elements as an int64 scalar tensor; -1 infinite, -2 unknown."""
        return constant(np.int64(self._cardinality))

    def __len__(self):
        if self._cardinality == INFINITE:
            raise TypeError("The dataset is infinite.")
        if self._cardinality == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __bool__(self):
        return True

    def options(self):
        out = Options()
        for ds in self._lineage():
            if ds._options is not None:
                out = out.merge(ds._options)
        return out

    def _lineage(self):
        out, stack = [], [self]
        while stack:
            ds = stack.pop()
            out.append(ds)
            stack.extend(ds._inputs)
        return out

    def __repr__(self):
        return f"<{type(self).__name__} element_spec={self.element_spec}>"

    # -- passes ----------------------------------------------------------------------------------
    def _stage(self):
        """A new pass over the elements: a Stage (subclasses define it)."""
        raise NotImplementedError

    def _rows(self):
        """(arrays, order) when every element is row `i` of `arrays` for `i` in `order()` (one
        call per pass); None otherwise. Enables the batch fast path."""
        return None

    def __iter__(self):
        return make_iterator(self)

    def as_numpy_iterator(self):
        """Iterate the elements as NumPy values (bytes for strings) in their structure."""
        return numpy_iterator(self)

    # -- sources ---------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """One element per row of `tensors` (a tensor, or a structure of tensors whose first
        dimensions agree): its slices along the first dimension."""
        fed = FED_SOURCE[0](tensors, True) if FED_SOURCE else None
        return fed if fed is not None else TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset of one element, `tensors`."""
        fed = FED_SOURCE[0](tensors, False) if FED_SOURCE else None
        return fed if fed is not None else TensorDataset(tensors)

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None):
        """range(stop), range(start, stop[, step]) as a dataset of scalars."""
        fed = FED_RANGE[0](args, output_type) if FED_RANGE else None
        return fed if fed is not None else RangeDataset(args, output_type)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        """Elements yielded by `generator()` (called anew for each pass), checked against
        `output_signature` (a structure of TensorSpecs)."""
        return GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def zip(*args, datasets=None, name=None):
        """Elements that pair up the elements of several datasets (a tuple or dict of them),
        stopping at the shortest."""
        if datasets is None:
            datasets = args[0] if len(args) == 1 else args
        elif args:
            raise TypeError("Dataset.zip: give the datasets positionally or as datasets=, not "
                            "both.")
        return ZipDataset(datasets)

    def concatenate(self, dataset, name=None):
        """This dataset's elements followed by `dataset`'s (same structure and dtypes)."""
        return ConcatenateDataset(self, dataset)


# -- from_tensor_slices -------------------------------------------------------------------------------
class _RowStage(Stage):
    def __init__(self, arrays, order):
        self._arrays, self._order, self._next = arrays, order, 0

    def __next__(self):
        if self._next >= len(self._order):
            raise StopIteration
        i = int(self._order[self._next])
        self._next += 1
        return tuple(a[i, ...] for a in self._arrays)


class TensorSliceDataset(Dataset):
    def __init__(self, tensors):
        structure, components = st.normalize(tensors, "Dataset.from_tensor_slices")
        sparse = [sparse_spec(c) if is_sparse(c) else None for c in components]
        ragged = {i: ragged_source(c) for i, c in enumerate(components)
                  if isinstance(c, RaggedTensor)}
        components = [sparse_rows(c) if is_sparse(c) else ragged[i][0] if i in ragged else c
                      for i, c in enumerate(components)]
        if any(c.ndim == 0 for c in components):
            raise InvalidArgumentError("Dataset.from_tensor_slices: every component needs a first "
                                       "dimension to slice; got a scalar (use from_tensors).")
        sizes = [c.shape[0] for c in components]
        if len(set(sizes)) > 1:
            shapes = ", ".join(str(list(c.shape)) for c in components)
            raise InvalidArgumentError(f"Dataset.from_tensor_slices: all components must have the "
                                       f"same size in the first dimension, got shapes {shapes}.")
        self._arrays = tuple(c if i in ragged else np.array(c)  # a copy: later edits do not leak
                             for i, c in enumerate(components))
        specs = [ragged[i][1] if i in ragged else
                 TensorSpec(c.shape[1:], st.specs_of([c])[0].dtype) if p is None else
                 SparseTensorSpec(p.shape[1:], p.dtype)
                 for i, (c, p) in enumerate(zip(self._arrays, sparse))]
        super().__init__(structure, specs, sizes[0])

    def _rows(self):
        n = self._cardinality
        return self._arrays, lambda: np.arange(n)

    def _stage(self):
        return _RowStage(self._arrays, range(self._cardinality))


class TensorDataset(Dataset):
    def __init__(self, tensors):
        structure, components = st.normalize(tensors, "Dataset.from_tensors")
        self._components = components
        super().__init__(structure, st.specs_of(components), 1)

    def _stage(self):
        return iter([self._components])


class _RangeStage(Stage):
    def __init__(self, values, dtype):
        self._it, self._dtype = iter(values), dtype

    def __next__(self):
        return (np.array(next(self._it), self._dtype),)


class RangeDataset(Dataset):
    def __init__(self, args, output_type):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"Dataset.range takes 1 to 3 arguments (stop, or start, stop, step), "
                            f"got {len(args)}.")
        args = [int(np.asarray(getattr(a, "_value", a))) for a in args]
        if len(args) == 3 and args[2] == 0:
            raise InvalidArgumentError("Dataset.range: step must not be 0.")
        self._range = range(*args)
        self._dtype = dtypes.as_dtype(output_type).as_numpy_dtype
        super().__init__(None, [TensorSpec([], output_type)], len(self._range))

    def _stage(self):
        return _RangeStage(self._range, self._dtype)


# -- from_generator -----------------------------------------------------------------------------------
def _signature(output_types, output_shapes, output_signature):
    if output_signature is not None:
        if output_types is not None or output_shapes is not None:
            raise TypeError("Dataset.from_generator: give output_signature, or output_types "
                            "(and output_shapes), not both.")
        return output_signature
    if output_types is None:
        raise TypeError("Dataset.from_generator: output_signature (a structure of TensorSpecs) "
                        "must be given.")
    flat_types = _leaves(output_types)
    shapes = _shapes_up_to(output_types, output_shapes) if output_shapes is not None else \
        [None] * len(flat_types)
    specs = [TensorSpec(TensorShape(s) if s is not None else TensorShape(None), t)
             for t, s in zip(flat_types, shapes)]
    return st.pack(st.structure_of(output_types), specs)


def _shapes_up_to(types, shapes):
    """The shapes in `shapes` at the positions of the dtypes in `types` (a shape is itself a
    tuple or list, so the shapes are flattened only as deep as the types)."""
    out, stack = [], [(types, shapes)]
    while stack:
        t, s = stack.pop()
        if isinstance(t, dict):
            stack.extend(reversed([(t[k], s[k]) for k in sorted(t)]))
        elif isinstance(t, tuple):
            if not isinstance(s, (tuple, list)) or len(s) != len(t):
                raise TypeError(f"Dataset.from_generator: output_shapes {shapes!r} does not "
                                f"match the structure of output_types {types!r}.")
            stack.extend(reversed(list(zip(t, s))))
        else:
            out.append(s)
    return out


def _leaves(structure):
    if isinstance(structure, (tuple, dict)):
        return nest.flatten(structure)
    return [structure]


class _GeneratorStage(Stage):
    def __init__(self, dataset):
        self._ds = dataset
        self._it = iter(dataset._generator(*dataset._args))
        self._index = 0

    def __next__(self):
        value = next(self._it)
        index, self._index = self._index, self._index + 1
        ds = self._ds
        what = f"Dataset.from_generator: element {index} yielded by the generator"
        try:
            structure, components = st.normalize(value, what)
        except TypeError:
            structure, components = None, None
        if structure is None or st._signature(structure) != st._signature(ds._structure):
            if len(ds._specs) == 1 and not isinstance(ds._structure, (tuple, dict)):
                components = (st._array(value, what),)
            else:
                raise TypeError(f"{what} does not match the expected structure "
                                f"{ds.element_spec}: got {value!r:.80}.")
        out = []
        for i, (c, spec) in enumerate(zip(components, ds._specs)):
            if isinstance(spec, RaggedTensorSpec):
                out.append(ragged_component(c, spec, f"{what}: component {i}"))
                continue
            if c.dtype != spec.dtype._np:
                if c.dtype.kind in "fc" and spec.dtype.is_integer or (
                        (c.dtype.kind == "O") != (spec.dtype._np.kind == "O")):
                    raise TypeError(f"{what}: component {i} has dtype {c.dtype}, which cannot "
                                    f"become {spec.dtype.name} (output_signature {spec}).")
                c = c.astype(spec.dtype._np)
            if not spec.shape.is_compatible_with(c.shape):
                raise InvalidArgumentError(f"{what}: component {i} has shape {list(c.shape)}, "
                                           f"where the output_signature says {spec.shape}.")
            out.append(c)
        return tuple(out)


class GeneratorDataset(Dataset):
    def __init__(self, generator, output_types, output_shapes, args, output_signature):
        if not callable(generator):
            raise TypeError(f"Dataset.from_generator: `generator` must be a callable that "
                            f"returns an iterator, got {type(generator).__name__}.")
        signature = _signature(output_types, output_shapes, output_signature)
        self._generator = generator
        self._args = tuple(np.asarray(getattr(a, "_value", a)) for a in (args or ()))
        specs = _leaves(signature)
        for spec in specs:
            if not isinstance(spec, (TensorSpec, RaggedTensorSpec)):
                raise TypeError(f"Dataset.from_generator: output_signature must hold TensorSpecs "
                                f"or RaggedTensorSpecs, got {spec!r}.")
        super().__init__(st.structure_of(signature), specs, UNKNOWN)

    def _stage(self):
        return _GeneratorStage(self)


# -- zip and concatenate ----------------------------------------------------------------------------
class _ZipStage(Stage):
    def __init__(self, stages):
        self._stages = stages

    def __next__(self):
        out = ()
        for stage in self._stages:
            out += next(stage)
        return out


class ZipDataset(Dataset):
    def __init__(self, datasets):
        leaves = _leaves(datasets)
        for d in leaves:
            if not isinstance(d, Dataset):
                raise TypeError(f"Dataset.zip expects a (nested) tuple or dict of datasets, got "
                                f"a {type(d).__name__}.")
        self._datasets = leaves
        structure = st.pack(st.structure_of(datasets), [d._structure for d in leaves])
        specs = [s for d in leaves for s in d._specs]
        counts = [d._cardinality for d in leaves]
        finite = [c for c in counts if c >= 0]
        card = min(finite) if finite else (UNKNOWN if UNKNOWN in counts else INFINITE)
        if UNKNOWN in counts and finite:
            card = UNKNOWN
        super().__init__(structure, specs, card, leaves)

    def _stage(self):
        return _ZipStage([d._stage() for d in self._datasets])


class _ChainStage(Stage):
    def __init__(self, datasets):
        self._pending, self._current = list(datasets), None

    def __next__(self):
        while True:
            if self._current is None:
                if not self._pending:
                    raise StopIteration
                self._current = self._pending.pop(0)._stage()
            try:
                return next(self._current)
            except StopIteration:
                self._current = None


class ConcatenateDataset(Dataset):
    def __init__(self, first, second):
        if not isinstance(second, Dataset):
            raise TypeError(f"Dataset.concatenate expects a Dataset, got {type(second).__name__}.")
        st.check_same_structure(first._structure, second._structure, "Dataset.concatenate")
        for a, b in zip(first._specs, second._specs):
            if a.dtype is not b.dtype:
                raise TypeError(f"Dataset.concatenate: the datasets have different dtypes "
                                f"({a.dtype.name} vs {b.dtype.name}).")
        specs = [st.relax(a, b) for a, b in zip(first._specs, second._specs)]
        counts = (first._cardinality, second._cardinality)
        card = (INFINITE if INFINITE in counts else UNKNOWN if UNKNOWN in counts
                else sum(counts))
        self._parts = (first, second)
        super().__init__(first._structure, specs, card, self._parts)

    def _stage(self):
        return _ChainStage(self._parts)


st.VALUE_TYPES["dataset"] = Dataset
