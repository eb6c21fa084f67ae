"""Elements of a dataset: nested structures of tensors, held as flat tuples of NumPy arrays.

An element is a tuple, dict or namedtuple (nested freely) whose leaves are tensors; as in
tf.data, a Python list is a value (converted to one tensor), not a structure. Inside the pipeline
an element travels as its *components*, the leaves in `nest.flatten` order (dict values by sorted
key) as NumPy arrays, with the structure kept once per dataset. `element_spec` packs one
`TensorSpec` per component (None where a dimension varies) into that structure. User functions
(map, filter, ...) receive tensors: `to_tensors` packs components, `to_components` flattens what
a function returns and checks it against a spec. A SparseTensor leaf is one component, the
SparseTensor itself, with a SparseTensorSpec (sparse_elements.py).
"""
import numpy as np

from ..framework import dtypes
from ..framework.errors import InvalidArgumentError
from ..framework.ragged_tensor import RaggedTensor
from ..framework.tensor import Tensor, array_of, to_array
from ..framework.tensor_shape import TensorShape
from ..tracing.ragged_spec import RaggedTensorSpec
from ..tracing.signatures import TensorSpec
from ..util import nest
from .sparse_elements import is_sparse, sparse_spec, unwrap
from .type_specs import VALUE_TYPES, DatasetSpec

__all__ = ["normalize", "structure_of", "specs_of", "to_tensors", "to_components",
           "element_spec", "relax", "check_same_structure", "DatasetSpec", "is_dataset_like", "VALUE_TYPES"]


def _is_structure(x):
    return isinstance(x, (tuple, dict))


def _flatten(value):
    """Leaves of `value` in nest order, lists counting as leaves."""
    leaves, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(reversed([item[k] for k in sorted(item, key=nest._sort_key)]))
        elif isinstance(item, tuple):
            stack.extend(reversed(item))
        else:
            leaves.append(item)
    return leaves


def _template(value):
    """`value` with every leaf replaced by None: the structure, lists counting as leaves."""
    if isinstance(value, dict):
        return nest._rebuild(value, [_template(value[k]) for k in sorted(value, key=nest._sort_key)])
    if isinstance(value, tuple):
        return nest._rebuild(value, [_template(v) for v in value])
    return None


def structure_of(value):
    return _template(value)


def pack(structure, leaves):
    """Rebuild `structure` (from `structure_of`) around `leaves`."""
    if not _is_structure(structure):
        (leaf,) = leaves
        return leaf
    return nest.pack_sequence_as(structure, list(leaves))


def flat_template(structure):
    return [None] if not _is_structure(structure) else nest.flatten(structure)


def _array(leaf, what):
    if is_sparse(leaf):  # a SparseTensor travels whole (sparse_elements.py)
        return leaf
    if isinstance(leaf, RaggedTensor):  # a ragged component travels as itself
        if not leaf.is_eager:
            raise TypeError(f"{what}: got a symbolic RaggedTensor; datasets hold eager values.")
        return leaf
    if isinstance(leaf, Tensor):
        value = getattr(leaf, "_value", None)
        if value is None:
            raise TypeError(f"{what}: got a symbolic tensor {leaf!r}; datasets hold eager values.")
        return np.asarray(value)
    if hasattr(leaf, "_as_tensor"):  # a Variable: its current value
        return np.array(array_of(leaf))
    try:
        return to_array(leaf)
    except TypeError as err:
        raise TypeError(f"{what}: cannot convert {type(leaf).__name__} {leaf!r:.60} to a "
                        f"tensor ({err}).") from None


def normalize(value, what="Dataset"):
    """(structure, components) of an element given by a user."""
    if value is None:
        raise TypeError(f"{what}: an element cannot be None.")
    structure = _template(value)
    return structure, tuple(_array(leaf, what) for leaf in _flatten(value))


def specs_of(components):
    return [sparse_spec(c) if is_sparse(c) else
            RaggedTensorSpec.from_value(c) if isinstance(c, RaggedTensor) else
            TensorSpec(c.shape, dtypes.FROM_NUMPY.get(c.dtype) or dtypes.as_dtype(c.dtype))
            for c in components]


def relax(spec_a, spec_b):
    """The most specific spec both fit (dimensions that differ become None)."""
    if isinstance(spec_a, RaggedTensorSpec):
        return spec_a.most_specific_common_supertype([spec_b]) or spec_a
    a, b = spec_a.shape, spec_b.shape
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorSpec(TensorShape(None), spec_a.dtype)
    return TensorSpec([x if x == y else None for x, y in zip(a.as_list(), b.as_list())],
                      spec_a.dtype)


def element_spec(structure, specs):
    return pack(structure, specs)


def to_tensors(structure, components):
    return pack(structure, [c if isinstance(c, (DatasetLike, RaggedTensor)) else unwrap(c)
                            if is_sparse(c) else Tensor(c) for c in components])


def check_same_structure(a, b, what):
    """TypeError naming `what` unless structures a and b match (containers and keys)."""
    if _signature(a) != _signature(b):
        raise TypeError(f"{what}: the structures do not match: {_describe(a)} vs "
                        f"{_describe(b)}.")


def _signature(structure):
    out, stack = [], [structure]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys = sorted(item, key=nest._sort_key)
            out.append(("dict", tuple(keys)))
            stack.extend(item[k] for k in keys)
        elif isinstance(item, tuple):
            out.append(("tuple", len(item)))
            stack.extend(item)
        else:
            out.append(None)
    return out


def _describe(structure):
    return repr(structure).replace("None", "*")


def to_components(value, structure, specs, what):
    """Flatten `value` returned by a user function, checking it against structure and specs."""
    got_structure, components = normalize(value, what)
    check_same_structure(structure, got_structure, what)
    for i, (c, spec) in enumerate(zip(components, specs)):
        if dtypes.as_dtype(c.dtype) is not spec.dtype:
            raise InvalidArgumentError(f"{what}: component {i} has dtype "
                                       f"{dtypes.as_dtype(c.dtype).name}, expected "
                                       f"{spec.dtype.name}.")
        if not spec.shape.is_compatible_with(c.shape):
            raise InvalidArgumentError(f"{what}: component {i} has shape {list(c.shape)}, "
                                       f"expected {spec.shape}.")
    return components


# -- datasets as elements (Dataset.window) ------------------------------------------------------
class DatasetLike:
    """Marker base of Dataset: a dataset can be a component of an element (windows)."""


def is_dataset_like(x):
    return isinstance(x, DatasetLike)
