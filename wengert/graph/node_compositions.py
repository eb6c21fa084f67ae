"""wengert's own op types written as compositions of TensorFlow's ops, so that a GraphDef or a
SavedModel function that uses them (gradients mostly: a saved training step) imports into
TensorFlow. Each rule writes helper nodes named under the op ("<op>/Mul", "<op>/shape") and
returns the last node, named as the op, so that the op's consumers read it unchanged:

    SquareGrad(x, dy)           = dy * (x * 2)                       (TensorFlow's Square gradient)
    MulSum(a, b)                = Sum(a * b, all axes)
    SumToShape(x; shape)        = Reshape(Sum(x, axes, keep_dims), shape): the leading axes x has
                                  beyond `shape`, and those where `shape` has 1 and x does not
    SumToShapeOf(x, like)       = the same to Shape(like); axes whose size `like` knows only at
                                  run time are not summed, so a run-time size of 1 there fails in
                                  the Reshape, never silently
    ReduceBroadcast(g, like; a) = BroadcastTo(Reshape(g, like's shape with 1 on the axes a),
                                  Shape(like))
    GatherGrad(g, i; shape, axis) = UnsortedSegmentSum over the gathered rows (axis 0, no batch
                                  dimensions), as TensorFlow's dense gather gradient
    ReduceLogSumExp(x; axis)    = log(sum(exp(x - m))) + m, m = max(x) where finite, else 0
    SigmoidCrossEntropyWithLogits(x, z) = relu(x) - x z + log1p(exp(-|x|))
    LogicalXor(x, y)            = (x or y) and not (x and y)
    Eye(...)                    = the constant matrix (its sizes are attributes)
    Dropout(x; rate)            = IdentityN(x * mask, mask), mask = (RandomUniform(noise shape)
                                  >= rate) / (1 - rate): TensorFlow draws its own numbers
    LowerBound / UpperBound(s, v) of vectors = Squeeze(Bound(ExpandDims(s), ExpandDims(v))):
                                  TensorFlow's searches rows of a matrix only
    StringSplitV2(x; sep, maxsplit) = IdentityN(values, row_splits) of TensorFlow's sparse
                                  StringSplitV2(Reshape(x, [-1]), sep) (indices, values, shape):
                                  row_splits = LowerBound(indices[:, 0], range(shape[0] + 1)),
                                  the pieces in the rows before each (wengert's op returns the
                                  ragged parts tf.strings.split makes of them)

Static shapes decide the axes; a rule raises ValueError (the caller's "no TensorFlow form here")
where they are not known well enough.
"""
import numpy as np

from ..framework import dtypes
from ..ops.broadcast_ops import SUM_TO_SHAPE, SUM_TO_SHAPE_OF
from ..ops.creation_ops import EYE
from ..ops.indexing_ops import GATHER_GRAD
from ..ops.io.strings import SPLIT_V2
from ..ops.math_ops import LOGICAL_XOR, MUL_SUM
from ..ops.nn.dropout import DROPOUT
from ..ops.nn.losses import SIGMOID_CE
from ..ops.reduce_ops import LOGSUMEXP, REDUCE_BROADCAST
from ..ops.sort_ops import LOWER_BOUND, UPPER_BOUND
from ..ops.unary_ops import SQUARE_GRAD

__all__ = ["COMPOSITIONS"]


def _static(shape, what):
    if shape.rank is None:
        raise ValueError(f"the rank of {what} is unknown")
    return shape.as_list()


def _positive(axes, rank):
    return sorted({int(a) % rank for a in axes}) if rank else []


def _square_grad(w, op, x, dy):
    dtype = op.inputs[0].dtype
    two = w.const(op.name, "y", 2, dtype)
    scaled = w.node(op.name, "Mul", "Mul", [(x, dtype), (two, dtype)])
    return w.final(op.name, "Mul", [(dy, dtype), (scaled, dtype)])


def _sum(w, op, name, x, dtype, axes, keep_dims, last=False):
    indices = w.const(op.name, "reduction_indices", axes)
    inputs = [(x, dtype), (indices, dtypes.int32)]
    if last:
        return w.final(name, "Sum", inputs, keep_dims=keep_dims)
    return w.node(op.name, "Sum", "Sum", inputs, keep_dims=keep_dims)


def _mul_sum(w, op, a, b):
    dtype = op.inputs[0].dtype
    rank = len(_static(op.inputs[0].shape, "MulSum's input"))
    product = w.node(op.name, "mul", "Mul", [(a, dtype), (b, dtype)])
    return _sum(w, op, op.name, product, dtype, list(range(rank)), False, last=True)


def _summed_axes(have, want):
    """Axes of a shape `have` to sum to reach `want` (both lists, None unknown)."""
    lead = len(have) - len(want)
    if lead < 0:
        raise ValueError(f"cannot sum shape {have} to the longer shape {want}")
    return list(range(lead)) + [lead + i for i, (h, s) in enumerate(zip(have[lead:], want))
                                if s == 1 and h != 1]


def _sum_reshaped(w, op, x, target, target_ref=None):
    dtype = op.inputs[0].dtype
    have = _static(op.inputs[0].shape, "the summed tensor")
    axes = _summed_axes(have, target)
    summed = _sum(w, op, op.name, x, dtype, axes, True) if axes else x
    shape = target_ref or w.const(op.name, "shape", target)
    return w.final(op.name, "Reshape", [(summed, dtype), (shape, dtypes.int32)])


def _sum_to_shape(w, op, x):
    return _sum_reshaped(w, op, x, list(op.get_attr("shape")))


def _sum_to_shape_of(w, op, x, like):
    target = _static(op.inputs[1].shape, "the target")
    shape = w.node(op.name, "Shape", "Shape", [(like, op.inputs[1].dtype)],
                   out_type=dtypes.int32)
    return _sum_reshaped(w, op, x, target, shape)


def _reduce_broadcast(w, op, g, like):
    dtype = op.inputs[0].dtype
    full = _static(op.inputs[1].shape, "the broadcast target")
    shape = w.node(op.name, "Shape", "Shape", [(like, op.inputs[1].dtype)],
                   out_type=dtypes.int32)
    if op.inputs[0].shape.rank != len(full):
        axis = op.get_attr("axis")
        axes = _positive(range(len(full)) if axis is None else
                         ([axis] if np.ndim(axis) == 0 else axis), len(full))
        kept = [1 if i in axes else (-1 if d is None else d) for i, d in enumerate(full)]
        if kept.count(-1) > 1:
            raise ValueError(f"ReduceBroadcast to {full}: more than one unknown dimension")
        g = w.node(op.name, "Reshape", "Reshape",
                   [(g, dtype), (w.const(op.name, "kept_shape", kept), dtypes.int32)])
    return w.final(op.name, "BroadcastTo", [(g, dtype), (shape, dtypes.int32)])


def _gather_grad(w, op, grad, indices, *like):
    shape = list(op.get_attr("params_shape") or [])
    if op.get_attr("axis") != 0 or op.get_attr("batch_dims") or like or None in shape:
        raise ValueError("only the gradient of a gather along axis 0 without batch dimensions "
                         "and with a known params shape has a TensorFlow form here")
    dtype, index_dtype = op.inputs[0].dtype, op.inputs[1].dtype
    rows = w.node(op.name, "values", "Reshape",
                  [(grad, dtype), (w.const(op.name, "values_shape", [-1] + shape[1:]),
                                   dtypes.int32)])
    ids = w.node(op.name, "indices", "Reshape",
                 [(indices, index_dtype), (w.const(op.name, "flat", [-1]), dtypes.int32)])
    count = w.const(op.name, "num_segments", shape[0])
    return w.final(op.name, "UnsortedSegmentSum",
                   [(rows, dtype), (ids, index_dtype), (count, dtypes.int32)])


def _logsumexp(w, op, x):
    dtype = op.inputs[0].dtype
    rank = len(_static(op.inputs[0].shape, "ReduceLogSumExp's input"))
    axis = op.get_attr("axis")
    axes = _positive(range(rank) if axis is None else
                     ([axis] if np.ndim(axis) == 0 else axis), rank)
    top = w.node(op.name, "Max", "Max", [(x, dtype), (w.const(op.name, "axes", axes),
                                                      dtypes.int32)], keep_dims=True)
    finite = w.node(op.name, "IsFinite", "IsFinite", [(top, dtype)], out_type=dtypes.bool)
    zeros = w.node(op.name, "ZerosLike", "ZerosLike", [(top, dtype)])
    top = w.node(op.name, "SelectV2", "SelectV2",
                 [(finite, dtypes.bool), (top, dtype), (zeros, dtype)])
    shifted = w.node(op.name, "sub", "Sub", [(x, dtype), (top, dtype)])
    total = _sum(w, op, op.name, w.node(op.name, "Exp", "Exp", [(shifted, dtype)]), dtype,
                 axes, bool(op.get_attr("keepdims")))
    logged = w.node(op.name, "Log", "Log", [(total, dtype)])
    if not op.get_attr("keepdims"):
        top = w.node(op.name, "Squeeze", "Squeeze", [(top, dtype)], squeeze_dims=axes)
    return w.final(op.name, "AddV2", [(logged, dtype), (top, dtype)])


def _sigmoid_ce(w, op, x, z):
    dtype = op.inputs[0].dtype
    relu = w.node(op.name, "Relu", "Relu", [(x, dtype)])
    xz = w.node(op.name, "mul", "Mul", [(x, dtype), (z, dtype)])
    first = w.node(op.name, "sub", "Sub", [(relu, dtype), (xz, dtype)])
    negated = w.node(op.name, "Neg", "Neg", [(w.node(op.name, "Abs", "Abs", [(x, dtype)]),
                                              dtype)])
    soft = w.node(op.name, "Log1p", "Log1p", [(w.node(op.name, "Exp", "Exp",
                                                      [(negated, dtype)]), dtype)])
    return w.final(op.name, "AddV2", [(first, dtype), (soft, dtype)])


def _logical_xor(w, op, x, y):
    both = [(x, dtypes.bool), (y, dtypes.bool)]
    either = w.node(op.name, "LogicalOr", "LogicalOr", both)
    each = w.node(op.name, "LogicalAnd", "LogicalAnd", both)
    neither = w.node(op.name, "LogicalNot", "LogicalNot", [(each, dtypes.bool)])
    return w.final(op.name, "LogicalAnd", [(either, dtypes.bool), (neither, dtypes.bool)])


def _dropout(w, op, x):
    """(x * mask, mask): mask = (RandomUniform(noise shape) >= rate) / (1 - rate), as
    IdentityN so that the op's two outputs keep their places."""
    dtype, rate = op.inputs[0].dtype, float(op.get_attr("rate"))
    noise = op.get_attr("noise_shape")
    if noise is None:
        shape = w.node(op.name, "Shape", "Shape", [(x, dtype)], out_type=dtypes.int32)
    else:
        have = _static(op.inputs[0].shape, "the dropped tensor")
        sizes = [h if n is None else n for n, h in zip(noise, have)]
        if None in sizes:
            raise ValueError(f"a noise_shape {list(noise)} whose sizes are known only at run time")
        shape = w.const(op.name, "noise_shape", sizes)
    draws = w.node(op.name, "random_uniform", "RandomUniform", [(shape, dtypes.int32)],
                   dtype=dtype, seed=int(op.get_attr("seed") or 0),
                   seed2=int(op.get_attr("seed2") or 0))
    kept = w.node(op.name, "GreaterEqual", "GreaterEqual",
                  [(draws, dtype), (w.const(op.name, "rate", rate, dtype), dtype)])
    flags = w.node(op.name, "Cast", "Cast", [(kept, dtypes.bool)], DstT=dtype, Truncate=False)
    mask = w.node(op.name, "mask", "Mul",
                  [(flags, dtype), (w.const(op.name, "scale", 1.0 / (1.0 - rate), dtype), dtype)])
    dropped = w.node(op.name, "mul", "Mul", [(x, dtype), (mask, dtype)])
    return w.final(op.name, "IdentityN", [(dropped, dtype), (mask, dtype)])


def _eye(w, op, *extra):
    if extra:
        raise ValueError("an identity matrix whose sizes are tensors")
    value = op.op_def.kernel(**op.attrs)
    return w.final_const(op.name, value, op.outputs[0].dtype)


def _vector_bound(w, op, op_type, sorted_ref, values_ref, dtype, out):
    zero = w.const(op.name, "axis", 0)
    rows = [(w.node(op.name, f"{k}_row", "ExpandDims", [(ref, dtype), (zero, dtypes.int32)]),
             dtype) for k, ref in (("sorted", sorted_ref), ("values", values_ref))]
    found = w.node(op.name, op_type, op_type, rows, out_type=out)
    return w.node(op.name, "Squeeze", "Squeeze", [(found, out)], squeeze_dims=[0])


def _bound(w, op, sorted_ref, values_ref):
    dtype, out = op.inputs[0].dtype, dtypes.as_dtype(op.get_attr("out_type"))
    ranks = (op.inputs[0].shape.rank, op.inputs[1].shape.rank)
    pair = [(sorted_ref, dtype), (values_ref, dtype)]
    if ranks[0] is not None and ranks[0] >= 2:
        return w.final(op.name, op.type, pair, out_type=out)
    if ranks != (1, 1):
        raise ValueError(f"a search of a vector for values of rank {ranks[1]}")
    found = _vector_bound(w, op, op.type, sorted_ref, values_ref, dtype, out)
    return w.final(op.name, "Identity", [(found, out)])


def _string_split(w, op, x):
    i32, i64, text = dtypes.int32, dtypes.int64, dtypes.string
    flat = w.node(op.name, "flat", "Reshape", [(x, text), (w.const(op.name, "shape", [-1]), i32)])
    sep = w.const(op.name, "sep", (op.get_attr("sep") or "").encode("utf-8"), text)
    split = w.node(op.name, "StringSplitV2", "StringSplitV2", [(flat, text), (sep, text)],
                   maxsplit=int(op.get_attr("maxsplit")))
    zero = w.const(op.name, "zero", 0)
    rows = w.node(op.name, "rows", "GatherV2", [(f"{split}:0", i64), (zero, i32),
                                                (w.const(op.name, "column", 1), i32)],
                  batch_dims=0)
    count = w.node(op.name, "num_rows", "GatherV2", [(f"{split}:2", i64), (zero, i32),
                                                     (zero, i32)], batch_dims=0)
    stop = w.node(op.name, "limit", "AddV2", [(count, i64), (w.const(op.name, "one", 1, i64),
                                                            i64)])
    starts = w.node(op.name, "row_starts", "Range", [(w.const(op.name, "start", 0, i64), i64),
                                                     (stop, i64),
                                                     (w.const(op.name, "delta", 1, i64), i64)])
    splits = _vector_bound(w, op, "LowerBound", rows, starts, i64, i64)
    return w.final(op.name, "IdentityN", [(f"{split}:1", text), (splits, i64)])


COMPOSITIONS = {SQUARE_GRAD: _square_grad, MUL_SUM: _mul_sum, SUM_TO_SHAPE: _sum_to_shape,
                SUM_TO_SHAPE_OF: _sum_to_shape_of, REDUCE_BROADCAST: _reduce_broadcast,
                GATHER_GRAD: _gather_grad, LOGSUMEXP: _logsumexp, SIGMOID_CE: _sigmoid_ce,
                LOGICAL_XOR: _logical_xor, EYE: _eye, DROPOUT: _dropout,
                LOWER_BOUND: _bound, UPPER_BOUND: _bound, SPLIT_V2: _string_split}
