"""SparseTensors as strings: `serialize_sparse`, `serialize_many_sparse`,
`deserialize_many_sparse`.

SerializeSparse(indices [N, R], values [N], dense_shape [R]) -> [3] strings: the three
components, each a serialized TensorProto (tf.io.serialize_tensor's format).
SerializeManySparse does so for each entry of the first axis: the sub-tensor of the rows with
first index i (their indices without the first column, in input order; dense shape
dense_shape[1:]) becomes row i of an [dense_shape[0], 3] string matrix.
DeserializeManySparse reverses it: the rows' SparseTensors (all of one rank and dtype) stacked
along a new first axis, the entries of row i first, the dense shape [rows, max of the rows'
shapes]. None of them is differentiable (strings carry no gradient).

TensorFlow also lets the serializing ops write `variant` tensors; wengert has no variant dtype,
so out_type must be tf.string.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import execute
from ...framework.protos.tensor import TensorProto, from_proto, to_proto
from ...framework.registry import defop
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape

__all__ = ["deserialize_many_sparse", "serialize_many_sparse", "serialize_sparse"]


def _component_strings(indices, values, shape, dtype):
    return [to_proto(np.asarray(indices, np.int64), dtypes.int64).SerializeToString(),
            to_proto(np.asarray(values), dtype).SerializeToString(),
            to_proto(np.asarray(shape, np.int64), dtypes.int64).SerializeToString()]


def _serialize_kernel(indices, values, dense_shape, *, T):
    return np.array(_component_strings(indices, values, dense_shape, dtypes.as_dtype(T)),
                    dtype=object)


def _serialize_many_kernel(indices, values, dense_shape, *, T):
    if len(dense_shape) < 2:
        raise InvalidArgumentError(f"SerializeManySparse: the SparseTensor must have rank at "
                                   f"least 2, got dense shape {list(dense_shape)}.")
    indices = np.asarray(indices, np.int64).reshape(-1, len(dense_shape))
    rows = int(dense_shape[0])
    out = np.empty((rows, 3), dtype=object)
    for r in range(rows):
        mine = indices[:, 0] == r
        out[r] = _component_strings(indices[mine, 1:], values[mine], dense_shape[1:],
                                    dtypes.as_dtype(T))
    return out


def _parse(text, what):
    try:
        return from_proto(TensorProto.FromString(bytes(text)), what)
    except Exception as err:  # a protobuf decoding error of any kind
        raise InvalidArgumentError(f"DeserializeManySparse: could not parse {what}: {err}") \
            from None


def _deserialize_many_kernel(serialized, *, dtype):
    serialized = np.asarray(serialized, dtype=object)
    if serialized.ndim != 2 or serialized.shape[1] != 3:
        raise InvalidArgumentError(f"DeserializeManySparse: serialized_sparse must be a [N, 3] "
                                   f"string matrix, got shape {list(serialized.shape)}.")
    want = dtypes.as_dtype(dtype)
    parts, ranks = [], set()
    for r, (ind, val, shp) in enumerate(serialized):
        (ind, _), (val, got), (shp, _) = (_parse(ind, "indices"), _parse(val, "values"),
                                          _parse(shp, "shape"))
        if got is not want:
            raise InvalidArgumentError(f"DeserializeManySparse: row {r} holds {got.name} "
                                       f"values, but dtype is {want.name}.")
        ranks.add(len(shp))
        parts.append((ind.reshape(-1, len(shp)), val, shp))
    if len(ranks) > 1:
        raise InvalidArgumentError(f"DeserializeManySparse: the rows have different ranks "
                                   f"{sorted(ranks)}; all must share one.")
    rank = ranks.pop() if ranks else 0
    shape = np.max([p[2] for p in parts], axis=0) if parts else np.zeros(rank, np.int64)
    indices = np.concatenate([np.concatenate([np.full((len(i), 1), r, np.int64), i], axis=1)
                              for r, (i, _, _) in enumerate(parts)]) if parts else \
        np.zeros((0, rank + 1), np.int64)
    values = np.concatenate([v for _, v, _ in parts]) if parts else \
        np.zeros(0, want.as_numpy_dtype)
    return (indices, values.astype(want.as_numpy_dtype, copy=False),
            np.concatenate([[len(parts)], shape]).astype(np.int64))


def _serialize_rule(indices, values, dense_shape, *, T):
    return TensorShape([3]), dtypes.string


def _serialize_many_rule(indices, values, dense_shape, *, T):
    return TensorShape([None, 3]), dtypes.string


def _deserialize_many_rule(serialized, *, dtype):
    return [(TensorShape([None, None]), dtypes.int64),
            (TensorShape([None]), dtypes.as_dtype(dtype)), (TensorShape([None]), dtypes.int64)]


SERIALIZE_SPARSE = defop("SerializeSparse", _serialize_kernel, shape=_serialize_rule, grad=None,
                         tf_inputs=("sparse_indices", "sparse_values", "sparse_shape"),
                         raw=lambda sparse_indices, sparse_values, sparse_shape,
                         out_type=dtypes.string, name=None: _run_serialize(
                             SERIALIZE_SPARSE, SparseTensor(sparse_indices, sparse_values,
                                                            sparse_shape), out_type, name))
SERIALIZE_MANY_SPARSE = defop(
    "SerializeManySparse", _serialize_many_kernel, shape=_serialize_many_rule, grad=None,
    tf_inputs=("sparse_indices", "sparse_values", "sparse_shape"),
    raw=lambda sparse_indices, sparse_values, sparse_shape, out_type=dtypes.string, name=None:
    _run_serialize(SERIALIZE_MANY_SPARSE, SparseTensor(sparse_indices, sparse_values,
                                                       sparse_shape), out_type, name))
DESERIALIZE_MANY_SPARSE = defop(
    "DeserializeManySparse", _deserialize_many_kernel, shape=_deserialize_many_rule, grad=None,
    num_outputs=3, raw=lambda serialized_sparse, dtype, name=None: execute(
        DESERIALIZE_MANY_SPARSE, (convert_to_tensor(serialized_sparse),),
        {"dtype": dtypes.as_dtype(dtype).name}, name))


def _run_serialize(op_def, sp, out_type, name):
    if not isinstance(sp, SparseTensor):
        raise TypeError(f"{op_def.type}: sp_input must be a SparseTensor, got "
                        f"{type(sp).__name__}.")
    if dtypes.as_dtype(out_type) is not dtypes.string:
        raise TypeError(f"{op_def.type}: out_type must be tf.string, got {out_type!r}: wengert "
                        f"has no variant dtype.")
    return execute(op_def, (sp.indices, sp.values, sp.dense_shape), {"T": sp.dtype.name}, name)


def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """`sp_input` as a [3] string vector: its indices, values and dense shape, each a serialized
    TensorProto."""
    return _run_serialize(SERIALIZE_SPARSE, sp_input, out_type, name)


def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """Each entry of `sp_input`'s first axis serialized as serialize_sparse does: an [N, 3]
    string matrix."""
    return _run_serialize(SERIALIZE_MANY_SPARSE, sp_input, out_type, name)


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The SparseTensor whose entries along a new first axis are the rows of an [N, 3]
    serialized_sparse matrix (serialize_many_sparse's output), of value dtype `dtype`; `rank`,
    if given, is the result's rank (checked)."""
    serialized = convert_to_tensor(serialized_sparse)
    if serialized.dtype is not dtypes.string:
        raise TypeError(f"deserialize_many_sparse: serialized_sparse must be a string tensor, "
                        f"got {serialized.dtype.name}.")
    indices, values, shape = execute(DESERIALIZE_MANY_SPARSE, (serialized,),
                                     {"dtype": dtypes.as_dtype(dtype).name}, name)
    if rank is not None and shape.shape[0] is not None and int(shape.shape[0]) != int(rank):
        raise ValueError(f"deserialize_many_sparse: the result has rank {shape.shape[0]}, but "
                         f"rank={rank} was given.")
    return SparseTensor(indices, values, shape)
