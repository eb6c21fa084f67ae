"""Composite tensors (RaggedTensor, SparseTensor) as the flat tensors a SavedModel's functions
take and return, in TensorFlow's order (its TypeSpecs' `_to_components`, which
`nest.flatten(..., expand_composites=True)` uses):

    RaggedTensor of ragged rank r   flat_values, then the r row_splits, outermost first
    SparseTensor                    indices [n, rank] int64, values [n], dense_shape [rank] int64

A function's argument or output nest holds a RaggedTensorSpec or SparseTensorSpec leaf where
the value is such a tensor; the FunctionDef's arguments (or outputs) are the components of every
leaf in nest order. `components` gives a spec's component TensorSpecs, `composite_parts` a
value's component tensors (None when the value does not fit the spec), `pack` rebuilds the
nest's values from the flat tensors (a RaggedTensor from its splits, unvalidated: the function
made them), `spec_of` is the spec of a value (a tensor, RaggedTensor or SparseTensor) and
`output_specs` the specs of a traced function's outputs, one per output a signature names;
`kind_and_parts` and `from_parts` take a composite apart and back ("ragged" or "sparse", and
its components), as wengert's own format (graph_json.py) records a composite output.
"""
from ..framework import dtypes
from ..framework.ragged_tensor import RaggedTensor
from ..framework.sparse_tensor import SparseTensor, SparseTensorSpec
from ..framework.tensor_shape import TensorShape
from ..tracing.ragged_spec import RaggedTensorSpec
from ..tracing.signatures import TensorSpec
from ..util import nest

__all__ = ["COMPOSITE_SPECS", "components", "composite_parts", "from_parts", "kind_and_parts",
           "output_specs", "pack", "spec_of", "width"]

COMPOSITE_SPECS = (RaggedTensorSpec, SparseTensorSpec)


def components(spec):
    """The TensorSpecs of a leaf's flat tensors (see the module docstring); [] for a Python
    value."""
    if isinstance(spec, TensorSpec):
        return [spec]
    if isinstance(spec, SparseTensorSpec):
        rank = spec.shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], spec.dtype),
                TensorSpec([rank], dtypes.int64)]
    if isinstance(spec, RaggedTensorSpec):
        inner = spec.shape[spec.ragged_rank + 1:] if spec.shape.rank is not None else None
        flat = TensorShape([None]).concatenate(TensorShape(inner))
        return [TensorSpec(flat, spec.dtype)] + [TensorSpec([None], spec.row_splits_dtype)
                                                 for _ in range(spec.ragged_rank)]
    return []


def width(spec):
    """How many flat tensors a leaf stands for."""
    if isinstance(spec, RaggedTensorSpec):
        return 1 + spec.ragged_rank
    if isinstance(spec, SparseTensorSpec):
        return 3
    return 1 if isinstance(spec, TensorSpec) else 0


def composite_parts(value, spec):
    """The flat tensors of a RaggedTensor / SparseTensor fitting `spec`, or None."""
    if getattr(value, "dtype", None) is not spec.dtype:
        return None
    if isinstance(spec, SparseTensorSpec):
        if not isinstance(value, SparseTensor) or \
                not spec.shape.is_compatible_with(value.shape):
            return None
        return [value.indices, value.values, value.dense_shape]
    if not isinstance(value, RaggedTensor) or value.ragged_rank != spec.ragged_rank or \
            not spec.shape.is_compatible_with(value.shape):
        return None
    splits = list(value.nested_row_splits)
    if any(t.dtype is not spec.row_splits_dtype for t in splits):
        return None
    return [value.flat_values] + splits


def pack(specs, flat):
    """The values of the leaves `specs` (a flat list) from the flat tensors `flat`: a tensor per
    TensorSpec, a RaggedTensor or SparseTensor per composite spec, a Python leaf as itself."""
    flat, at, out = list(flat), 0, []
    for spec in specs:
        n = width(spec)
        parts = flat[at:at + n]
        at += n
        if isinstance(spec, SparseTensorSpec):
            out.append(SparseTensor(*parts))
        elif isinstance(spec, RaggedTensorSpec):
            out.append(RaggedTensor.from_nested_row_splits(parts[0], parts[1:], validate=False))
        elif isinstance(spec, TensorSpec):
            out.append(parts[0])
        else:
            out.append(spec)
    if at != len(flat):
        raise ValueError(f"The function returns {len(flat)} tensors; its saved outputs "
                         f"{list(specs)!r:.200} stand for {at}.")
    return out


def spec_of(value):
    """The TensorSpec, RaggedTensorSpec or SparseTensorSpec of a value (None for others)."""
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec(value.shape, value.dtype, value.ragged_rank,
                                value.row_splits.dtype)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(value.shape, value.dtype)
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return TensorSpec(value.shape, value.dtype)
    return None


def output_specs(concrete):
    """The spec of each output of a traced function, in flat order: a TensorSpec per tensor, a
    RaggedTensorSpec or SparseTensorSpec per composite (their widths add up to the function's
    flat outputs)."""
    specs = [spec_of(leaf) for leaf in nest.flatten(concrete.structured_outputs)
             if leaf is not None]
    specs = [s for s in specs if s is not None]
    if sum(width(s) for s in specs) != len(concrete.outputs):
        return [TensorSpec(t.shape, t.dtype) for t in concrete.outputs]
    return specs


def kind_and_parts(x):
    """("ragged", [flat_values, *row_splits]) or ("sparse", [indices, values, dense_shape]) of
    a composite tensor, else None."""
    if isinstance(x, RaggedTensor):
        return "ragged", [x.flat_values] + list(x.nested_row_splits)
    if isinstance(x, SparseTensor):
        return "sparse", [x.indices, x.values, x.dense_shape]
    return None


def from_parts(kind, parts):
    """The composite `kind_and_parts` took apart; ValueError for parts that cannot be one."""
    if kind == "sparse" and len(parts) == 3:
        return SparseTensor(*parts)
    if kind == "ragged" and len(parts) >= 2:
        return RaggedTensor.from_nested_row_splits(parts[0], parts[1:], validate=False)
    raise ValueError(f"a {kind} tensor of {len(parts)} parts")
