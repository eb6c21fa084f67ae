"""`wengert.raw_ops`: TensorFlow's `tf.raw_ops`, every op under its op type name, called with
keyword arguments only: `tf.raw_ops.AddV2(x=a, y=b)`.

The functions below take TensorFlow's argument names and call wengert's public functions (or
run the op itself), so the same op records, gradient and shape rule apply. Any other declared op
type is reachable too (`__getattr__`): its keyword arguments are matched to the op's declared
parameters, tensors (and arrays) becoming its inputs in order and other values its attributes.
Positional arguments are refused, as TensorFlow refuses them.
"""
import functools
import inspect
import types

import numpy as np

from .framework import dtypes as _dtypes
from .framework.execute import execute as _execute
from .framework.registry import get_op_def as _get_op_def, registered_op_types as _registered
from .framework.tensor import Tensor as _Tensor, convert_to_tensor as _tensor
from . import math as _m, nn as _nn, linalg as _la
from .ops import (broadcast_ops, reshape_ops, cast_ops, array_ops, creation_ops, histogram_ops,
                  indexing_ops, matmul_ops, manip_ops, math_ops, partition_ops, reduce_ops,
                  scatter_ops, segment_ops as _seg, shape_ops as _shape, sort_ops,
                  space_ops as _space)
from .ops.nn import clip, activations as _nn_ops
from .ops.nn.conv import conv2d as _conv
from .ops.random import seeded as _random
from .ops.histogram_ops import DENSE_BINCOUNT as _DENSE_BINCOUNT
from .debugging import numerics as _numerics

# The functions TensorFlow has at its top level, gathered from the op families (wengert's own
# top level imports this module, so it is not imported here).
_TOP = (broadcast_ops, reshape_ops, cast_ops, array_ops, clip, creation_ops, histogram_ops, indexing_ops, matmul_ops,
        manip_ops, math_ops, partition_ops, reduce_ops, scatter_ops, _shape, sort_ops, _space)


def _keyword_only(op_type, fn):
    """fn called with keyword arguments only, named tf.raw_ops.<op_type>."""
    @functools.wraps(fn)
    def raw(*args, **kwargs):
        if args:
            names = list(inspect.signature(fn).parameters)
            raise TypeError(f"raw_ops.{op_type} only accepts keyword arguments (possible keys: "
                            f"{names}); got {len(args)} positional.")
        return fn(**kwargs)
    raw.__name__ = raw.__qualname__ = op_type
    return raw


def _tf():
    """A stand-in for the package namespace: tf.add, tf.reshape, ..., tf.math."""
    names = {k: getattr(mod, k) for mod in _TOP for k in getattr(mod, "__all__", ())}
    names.update(math=_m, range=creation_ops.range)
    return types.SimpleNamespace(**names)


# -- arithmetic, comparison, elementwise ------------------------------------------------------------
def _binary(fn):
    return lambda x, y, name=None: fn(x, y, name=name)


_RAW = {}


def _define(**functions):
    for op_type, fn in functions.items():
        _RAW[op_type] = _keyword_only(op_type, fn)


def _reduction(fn):
    return lambda input, axis, keep_dims=False, name=None: fn(  # noqa: A002
        input, _axis_list(axis), keepdims=keep_dims, name=name)


def _axis_list(axis):
    value = np.asarray(axis.numpy() if isinstance(axis, _Tensor) else axis)
    return int(value) if value.ndim == 0 else [int(a) for a in value.reshape(-1)]


def _grad_helper(op_def):
    return lambda gradients, features=None, outputs=None, alpha=None, name=None: _execute(
        op_def, (_tensor(gradients), _tensor(features if features is not None else outputs)),
        {} if alpha is None else {"alpha": alpha}, name)


def _defaults():
    tf = _tf()
    _define(
        AddV2=_binary(tf.add), Add=_binary(tf.add), Sub=_binary(tf.subtract),
        Mul=_binary(tf.multiply), RealDiv=_binary(_m.realdiv), Div=_binary(tf.divide),
        FloorDiv=_binary(tf.math.floordiv), FloorMod=_binary(tf.math.floormod),
        Maximum=_binary(tf.maximum), Minimum=_binary(tf.minimum), Pow=_binary(tf.pow),
        SquaredDifference=_binary(_m.squared_difference),
        Atan2=lambda y, x, name=None: _m.atan2(y, x, name=name),
        NextAfter=lambda x1, x2, name=None: _m.nextafter(x1, x2, name=name),
        Igamma=lambda a, x, name=None: _m.igamma(a, x, name=name),
        Igammac=lambda a, x, name=None: _m.igammac(a, x, name=name),
        Polygamma=lambda a, x, name=None: _m.polygamma(a, x, name=name),
        Zeta=lambda x, q, name=None: _m.zeta(x, q, name=name),
        Betainc=lambda a, b, x, name=None: _m.betainc(a, b, x, name=name),
        ApproximateEqual=lambda x, y, tolerance=1e-5, name=None: _m.approximate_equal(
            x, y, tolerance, name=name),
        Cast=lambda x, DstT, Truncate=False, name=None: tf.cast(x, DstT, name=name),  # noqa: N803
        ClipByValue=lambda t, clip_value_min, clip_value_max, name=None: tf.clip_by_value(
            t, clip_value_min, clip_value_max, name=name),
        SelectV2=lambda condition, t, e, name=None: tf.where(condition, t, e, name=name),
        AddN=lambda inputs, name=None: tf.add_n(inputs, name=name),
        InvertPermutation=lambda x, name=None: _m.invert_permutation(x, name=name),
        Softsign=lambda features, name=None: _m.softsign(features, name=name),
        Relu=lambda features, name=None: _nn.relu(features, name=name),
        Relu6=lambda features, name=None: _nn.relu6(features, name=name),
        Elu=lambda features, name=None: _nn.elu(features, name=name),
        Selu=lambda features, name=None: _nn.selu(features, name=name),
        Softplus=lambda features, name=None: tf.math.softplus(features, name=name),
        LeakyRelu=lambda features, alpha=0.2, name=None: _nn.leaky_relu(features, alpha, name),
        ReluGrad=_grad_helper(_nn_ops.RELU_GRAD), Relu6Grad=_grad_helper(_nn_ops.RELU6_GRAD),
        LeakyReluGrad=_grad_helper(_nn_ops.LEAKY_RELU_GRAD),
        EluGrad=_grad_helper(_nn_ops.ELU_GRAD), SeluGrad=_grad_helper(_nn_ops.SELU_GRAD),
        Softmax=lambda logits, name=None: _nn.softmax(logits, name=name),
        LogSoftmax=lambda logits, name=None: _nn.log_softmax(logits, name=name),
        MatMul=lambda a, b, transpose_a=False, transpose_b=False, grad_a=False, grad_b=False,
        name=None: tf.matmul(a, b, transpose_a, transpose_b, name=name),
        BatchMatMulV2=lambda x, y, adj_x=False, adj_y=False, grad_x=False, grad_y=False,
        name=None: tf.matmul(x, y, adjoint_a=adj_x, adjoint_b=adj_y, name=name),
        Equal=lambda x, y, incompatible_shape_error=True, name=None: tf.equal(x, y, name=name),
        NotEqual=lambda x, y, incompatible_shape_error=True, name=None: tf.not_equal(
            x, y, name=name),
        Round=lambda x, name=None: _m.round(x, name=name),
        Einsum=lambda inputs, equation, name=None: tf.einsum(equation, *inputs),
    )
    _define(**{op: _reduction(fn) for op, fn in (
        ("Sum", tf.reduce_sum), ("Mean", tf.reduce_mean), ("Max", tf.reduce_max),
        ("Min", tf.reduce_min), ("Prod", tf.reduce_prod), ("All", tf.reduce_all),
        ("Any", tf.reduce_any), ("EuclideanNorm", _m.reduce_euclidean_norm))})
    _define(
        ArgMax=lambda input, dimension, output_type=_dtypes.int64, name=None: tf.argmax(  # noqa
            input, _axis_list(dimension), output_type, name=name),
        ArgMin=lambda input, dimension, output_type=_dtypes.int64, name=None: tf.argmin(  # noqa
            input, _axis_list(dimension), output_type, name=name),
        Cumsum=lambda x, axis, exclusive=False, reverse=False, name=None: tf.math.cumsum(
            x, _axis_list(axis), exclusive, reverse, name=name),
        Cumprod=lambda x, axis, exclusive=False, reverse=False, name=None: _m.cumprod(
            x, _axis_list(axis), exclusive, reverse, name=name),
        CumulativeLogsumexp=lambda x, axis, exclusive=False, reverse=False, name=None:
        _m.cumulative_logsumexp(x, _axis_list(axis), exclusive, reverse, name=name),
        TopKV2=lambda input, k, sorted=True, index_type=_dtypes.int32, name=None: _m.top_k(  # noqa
            input, k, sorted, index_type, name=name),
        InTopKV2=lambda predictions, targets, k, name=None: _m.in_top_k(targets, predictions,
                                                                        k, name=name),
        LowerBound=lambda sorted_inputs, values, out_type=_dtypes.int32, name=None:
        tf.searchsorted(sorted_inputs, values, "left", out_type, name=name),
        UpperBound=lambda sorted_inputs, values, out_type=_dtypes.int32, name=None:
        tf.searchsorted(sorted_inputs, values, "right", out_type, name=name),
        Unique=lambda x, out_idx=_dtypes.int32, name=None: tf.unique(x, out_idx, name=name),
        UniqueWithCounts=lambda x, out_idx=_dtypes.int32, name=None: tf.unique_with_counts(
            x, out_idx, name=name),
        DenseBincount=lambda input, size, weights, binary_output=False, name=None: _execute(  # noqa
            _DENSE_BINCOUNT, (_tensor(input), _tensor(size), _tensor(weights)),
            {"binary_output": bool(binary_output)}, name),
        HistogramFixedWidth=lambda values, value_range, nbins, dtype=_dtypes.int32, name=None:
        tf.histogram_fixed_width(values, value_range, nbins, dtype, name=name),
    )
    _define(**{op: (lambda fn: lambda data, segment_ids, name=None: fn(
        data, segment_ids, name=name))(fn) for op, fn in (
        ("SegmentSum", _m.segment_sum), ("SegmentMean", _m.segment_mean),
        ("SegmentMax", _m.segment_max), ("SegmentMin", _m.segment_min),
        ("SegmentProd", _m.segment_prod))})
    _define(**{op: (lambda fn: lambda data, segment_ids, num_segments, name=None: fn(
        data, segment_ids, num_segments, name=name))(fn) for op, fn in (
        ("UnsortedSegmentSum", _m.unsorted_segment_sum),
        ("UnsortedSegmentMax", _m.unsorted_segment_max),
        ("UnsortedSegmentMin", _m.unsorted_segment_min),
        ("UnsortedSegmentProd", _m.unsorted_segment_prod))})
    for op, fn in (("Sum", _seg.sparse_segment_sum), ("Mean", _seg.sparse_segment_mean),
                   ("SqrtN", _seg.sparse_segment_sqrt_n)):
        _define(**{
            f"SparseSegment{op}": (lambda fn: lambda data, indices, segment_ids,
                                   sparse_gradient=False, name=None: fn(
                                       data, indices, segment_ids, name=name))(fn),
            f"SparseSegment{op}WithNumSegments": (lambda fn: lambda data, indices, segment_ids,
                                                  num_segments, sparse_gradient=False, name=None:
                                                  fn(data, indices, segment_ids, num_segments,
                                                     name=name))(fn)})
    _define(**{op: (lambda fn: lambda tensor, indices, updates, bad_indices_policy="",
                    name=None: fn(tensor, indices, updates, name=name))(fn) for op, fn in (
        ("TensorScatterUpdate", tf.tensor_scatter_nd_update),
        ("TensorScatterAdd", tf.tensor_scatter_nd_add),
        ("TensorScatterSub", tf.tensor_scatter_nd_sub),
        ("TensorScatterMin", tf.tensor_scatter_nd_min),
        ("TensorScatterMax", tf.tensor_scatter_nd_max))})
    _array_ops(tf)


def _array_ops(tf):
    _define(
        Reshape=lambda tensor, shape, name=None: tf.reshape(tensor, shape, name=name),
        Transpose=lambda x, perm, name=None: tf.transpose(x, perm, name=name),
        ConcatV2=lambda values, axis, name=None: tf.concat(values, _axis_list(axis), name=name),
        Pack=lambda values, axis=0, name=None: tf.stack(values, axis, name=name),
        Unpack=lambda value, num, axis=0, name=None: tf.unstack(value, num, axis, name=name),
        ExpandDims=lambda input, axis, name=None: tf.expand_dims(  # noqa: A002
            input, _axis_list(axis), name=name),
        Squeeze=lambda input, axis=(), name=None: tf.squeeze(  # noqa: A002
            input, list(axis) or None, name=name),
        Identity=lambda input, name=None: tf.identity(input, name=name),  # noqa: A002
        IdentityN=lambda input, name=None: tf.identity_n(input, name=name),  # noqa: A002
        StopGradient=lambda input, name=None: tf.stop_gradient(input, name=name),  # noqa: A002
        GuaranteeConst=lambda input, name=None: tf.guarantee_const(input, name=name),  # noqa
        BroadcastTo=lambda input, shape, name=None: tf.broadcast_to(input, shape, name=name),  # noqa
        BroadcastArgs=lambda s0, s1, name=None: tf.broadcast_dynamic_shape(s0, s1),
        Shape=lambda input, out_type=_dtypes.int32, name=None: tf.shape(  # noqa: A002
            input, out_type, name=name),
        ShapeN=lambda input, out_type=_dtypes.int32, name=None: tf.shape_n(  # noqa: A002
            input, out_type, name=name),
        Size=lambda input, out_type=_dtypes.int32, name=None: tf.size(  # noqa: A002
            input, out_type, name=name),
        Rank=lambda input, name=None: tf.rank(input, name=name),  # noqa: A002
        Fill=lambda dims, value, name=None: tf.fill(dims, value, name=name),
        Range=lambda start, limit, delta, name=None: tf.range(start, limit, delta),
        LinSpace=lambda start, stop, num, name=None: _shape.lin_space(start, stop, num, name),
        Tile=lambda input, multiples, name=None: tf.tile(input, multiples, name=name),  # noqa
        OneHot=lambda indices, depth, on_value, off_value, axis=-1, name=None: tf.one_hot(
            indices, depth, on_value, off_value, axis, name=name),
        PadV2=lambda input, paddings, constant_values, name=None: tf.pad(  # noqa: A002
            input, paddings, "CONSTANT", constant_values, name=name),
        Pad=lambda input, paddings, name=None: tf.pad(input, paddings, name=name),  # noqa
        MirrorPad=lambda input, paddings, mode, name=None: tf.pad(  # noqa: A002
            input, paddings, mode, name=name),
        ReverseV2=lambda tensor, axis, name=None: tf.reverse(tensor, axis, name=name),
        ReverseSequence=lambda input, seq_lengths, seq_dim, batch_dim=0, name=None:  # noqa
        tf.reverse_sequence(input, seq_lengths, seq_dim, batch_dim, name=name),
        Roll=lambda input, shift, axis, name=None: tf.roll(input, shift, axis, name=name),  # noqa
        GatherV2=lambda params, indices, axis, batch_dims=0, name=None: tf.gather(
            params, indices, axis=_axis_list(axis), batch_dims=batch_dims, name=name),
        GatherNd=lambda params, indices, bad_indices_policy="", name=None: tf.gather_nd(
            params, indices, name=name),
        ScatterNd=lambda indices, updates, shape, bad_indices_policy="", name=None:
        tf.scatter_nd(indices, updates, shape, name=name),
        Where=lambda condition, name=None: tf.where(condition, name=name),
        ZerosLike=lambda x, name=None: tf.zeros_like(x, name=name),
        OnesLike=lambda x, name=None: tf.ones_like(x, name=name),
        Slice=lambda input, begin, size, name=None: tf.slice(input, begin, size, name=name),  # noqa
        StridedSlice=lambda input, begin, end, strides, begin_mask=0, end_mask=0,  # noqa: A002
        ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0, name=None: tf.strided_slice(
            input, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
            shrink_axis_mask, name=name),
        Split=lambda axis, value, num_split, name=None: tf.split(value, num_split,
                                                                 _axis_list(axis), name=name),
        SplitV=lambda value, size_splits, axis, num_split=None, name=None: tf.split(
            value, size_splits, _axis_list(axis), name=name),
        DynamicStitch=lambda indices, data, name=None: tf.dynamic_stitch(indices, data, name),
        SpaceToDepth=lambda input, block_size, data_format="NHWC", name=None:  # noqa: A002
        _space.space_to_depth(input, block_size, data_format, name),
        DepthToSpace=lambda input, block_size, data_format="NHWC", name=None:  # noqa: A002
        _space.depth_to_space(input, block_size, data_format, name),
        SpaceToBatchND=lambda input, block_shape, paddings, name=None: tf.space_to_batch_nd(
            input, block_shape, paddings, name),
        BatchToSpaceND=lambda input, block_shape, crops, name=None: tf.batch_to_space(
            input, block_shape, crops, name),
        MatrixDiag=lambda diagonal, name=None: _la.diag(diagonal),
        MatrixDiagPart=lambda input, name=None: _la.diag_part(input),  # noqa: A002
        MatrixSetDiag=lambda input, diagonal, name=None: _la.set_diag(input, diagonal),  # noqa
        Conv2D=lambda input, filter, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
        explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None:
        _nn.conv2d(input, filter, strides, padding, data_format, dilations, name),
        MaxPool=lambda input, ksize, strides, padding, explicit_paddings=(),  # noqa: A002
        data_format="NHWC", name=None: _nn.max_pool2d(input, ksize, strides, padding,
                                                        data_format, name),
        AvgPool=lambda value, ksize, strides, padding, data_format="NHWC", name=None:
        _nn.avg_pool2d(value, ksize, strides, padding, data_format, name),
        DepthwiseConv2dNative=lambda input, filter, strides, padding,  # noqa: A002
        explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None:
        _conv.depthwise_conv2d_native(input, filter, strides, padding, data_format, dilations,
                                      name),
        RandomStandardNormal=lambda shape, dtype, seed=0, seed2=0, name=None: _random.normal(
            shape, dtype=dtype, name=name),
        TruncatedNormal=lambda shape, dtype, seed=0, seed2=0, name=None:
        _random.truncated_normal(shape, dtype=dtype, name=name),
        RandomUniform=lambda shape, dtype, seed=0, seed2=0, name=None: _random.uniform(
            shape, dtype=dtype, name=name),
        CheckNumerics=lambda tensor, message, name=None: _numerics.check_numerics(
            tensor, message, name),
    )


# -- any other declared op: keyword arguments matched to its declared parameters -----------------------
def _parameters(op_def):
    """The op's parameter names: its kernel's, unless the kernel is a NumPy function (whose
    names, x1 and x2, are NumPy's) or takes *arrays; then its shape rule's."""
    for fn in (op_def.kernel, op_def.shape):
        if fn is None or isinstance(fn, np.ufunc) or getattr(fn, "__module__", "") == "numpy":
            continue
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            continue
        if any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
            return params
    return []


def _is_tensor_like(value):
    return isinstance(value, (_Tensor, np.ndarray)) or hasattr(value, "_as_tensor")


def _generic(op_type):
    op_def = _get_op_def(op_type)
    params = [p.name for p in _parameters(op_def)
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]

    def raw(name=None, **kwargs):
        unknown = sorted(set(kwargs) - set(params))
        if unknown and params:
            raise TypeError(f"raw_ops.{op_type} got unexpected keyword arguments {unknown}; "
                            f"it takes {params}.")
        ordered = [k for k in params if k in kwargs] + unknown
        inputs = tuple(_tensor(kwargs[k]) for k in ordered if _is_tensor_like(kwargs[k]))
        attrs = {k: kwargs[k] for k in ordered if not _is_tensor_like(kwargs[k])}
        return _execute(op_def, inputs, attrs, name)
    return _keyword_only(op_type, raw)


def __getattr__(op_type):
    if not _RAW:
        _defaults()
    if op_type in _RAW:
        return _RAW[op_type]
    if op_type.startswith("_") or op_type not in _registered():
        raise AttributeError(f"module 'wengert.raw_ops' has no op {op_type!r}.")
    fn = _RAW[op_type] = _generic(op_type)
    return fn


def __dir__():
    if not _RAW:
        _defaults()
    return sorted(set(_RAW) | set(_registered()))
