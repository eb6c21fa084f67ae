"""Neural-network activations: `wengert.nn` (TensorFlow's `tf.nn`).

Activations are fused primitives with NumPy kernels; each has a helper op for its gradient, in
TensorFlow's names, so that gradients of gradients work (g is the incoming gradient):

    relu(x) = max(x, 0)                dx = ReluGrad(g, y)      = g where y > 0, else 0
    relu6(x) = min(max(x, 0), 6)       dx = Relu6Grad(g, x)     = g where 0 < x < 6, else 0
    leaky_relu(x) = x or alpha*x       dx = LeakyReluGrad(g, x) = g where x > 0, else alpha*g
    elu(x) = x or exp(x) - 1           dx = EluGrad(g, y)       = g where y >= 0, else g*(y + 1)
    selu(x) = s*x or s*a*(exp(x) - 1)  dx = SeluGrad(g, y)      = s*g where y >= 0, else g*(y + s*a)

At the kinks TensorFlow's choice is kept: relu's derivative at 0 is 0, leaky_relu's is alpha. Each
helper is linear in g, so its gradient with respect to g is itself; elu and selu helpers also
depend on y: d/dy [g*(y + c)] = g on the negative side.

softmax(x)_i = exp(x_i) / sum_j exp(x_j), computed after subtracting the max (stable); its VJP is
(g - sum(g*y)) * y. log_softmax(x) = x - logsumexp(x), VJP g - sum(g) * exp(y).

The losses (softmax, sparse softmax and sigmoid cross-entropy, l2_loss) are in losses.py, which
wengert.nn exports too. bias_add adds a [C] vector along the channel axis; the
bias gradient (BiasAddGrad) sums over the other axes, and its own gradient broadcasts back.
gelu, l2_normalize and crelu (concat(relu(x), relu(-x)) along an axis) are compositions of other
ops.

Forward mode (JVP, du the input's tangent): an activation's Jacobian is diagonal, so its helper
applied to du is its JVP (relu: ReluGrad(du, y)); each helper is linear in g, plus, for elu and
selu, g dy on the negative side. softmax's Jacobian diag(y) - y y^T is symmetric, so its JVP is its
VJP, (du - sum(du y)) y; log_softmax: du - sum(softmax(x) du). bias_add and its gradient are
linear.
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import InvalidArgumentError
from ...framework.execute import binary_operands, execute
from ...framework.registry import defop, linear, needs_grad
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import shape_rules
from ..array_ops import concat, where
from ..broadcast_ops import broadcast_to, zeros_like
from ..cast_ops import cast
from ..elementwise import float_rule, fused_grad_jvp
from ..math_ops import maximum, multiply, negative
from ..matmul_ops import matmul
from ..reduce_ops import SUM, reduce_sum
from ..reshape_ops import reshape
from ..shape_rules import axis_int, axis_tuple, batch_rank
from ..special_math_ops import erfc
from ..unary_ops import exp, rsqrt, sigmoid, softplus, tanh

__all__ = ["relu", "relu6", "leaky_relu", "elu", "selu", "gelu", "silu", "swish", "sigmoid",
           "tanh", "softplus", "softmax", "log_softmax", "bias_add", "l2_normalize", "crelu"]

_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717


def _float_input(x, op_type):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise TypeError(f"{op_type}: input must be a floating-point tensor, got {x.dtype.name} "
                        f"(shape {x.shape}); use cast(x, float32) first.")
    return x


def _grad_helper_rule(g, x, **_):
    """Gradient helpers: (incoming gradient, forward input or output), same shape and dtype."""
    shape_rules.check_same_dtype(g, x)
    if not g.shape.is_compatible_with(x.shape):
        raise InvalidArgumentError(f"gradient of shape {g.shape} does not match the forward "
                                   f"tensor of shape {x.shape}.")
    return g.shape, g.dtype


def _zero(x):
    return x.dtype.type(0)


# -- relu and relu6 -------------------------------------------------------------------------------
# g * (y > 0), as TensorFlow computes it (a NaN gradient stays NaN); 10x faster than np.where.
def _activation_jvp(own_op, on_forward="output"):
    """JVP of an activation (`on_forward` says whether its helper reads the op's "output" or
    "input"): the helper applied to the tangent."""
    def jvp(primals, tangents, outputs, **attrs):
        forward = outputs[0] if on_forward == "output" else primals[0]
        return execute(own_op(), (tangents[0], forward), attrs)
    return jvp


RELU_GRAD = defop("ReluGrad", lambda g, y: g * (y > 0), shape=_grad_helper_rule,
                  grad=lambda op, gg: (relu_grad(gg, op.inputs[1]), None),
                  jvp=fused_grad_jvp(lambda: RELU_GRAD, 0), batch="safe",
                  inplace=lambda g, y, out: np.multiply(g, y > 0, out=out),
                  args=("gradients", "features"))
RELU = defop("Relu", lambda x: np.maximum(x, _zero(x)), shape=shape_rules.same, onnx="Relu",
             grad=lambda op, g: relu_grad(g, op.outputs[0]), jvp=_activation_jvp(lambda: RELU_GRAD),
             batch="safe", inplace=lambda x, out: np.maximum(x, _zero(x), out=out),
             args=("features",))


def relu_grad(gradients, outputs):
    """ReluGrad: `gradients` where the relu output is positive, 0 elsewhere (0 at 0)."""
    return execute(RELU_GRAD, (gradients, outputs))


def relu(features, name=None):
    """max(features, 0). The gradient at 0 is 0."""
    features = convert_to_tensor(features)
    return execute(RELU, (features,), name=name)


def _relu6_grad_kernel(g, x):
    return np.where((x > 0) & (x < 6), g, _zero(g))


def _relu6_kernel(x):
    return np.minimum(np.maximum(x, _zero(x)), x.dtype.type(6))


RELU6_GRAD = defop("Relu6Grad", _relu6_grad_kernel, shape=_grad_helper_rule,
                   grad=lambda op, gg: (execute(RELU6_GRAD, (gg, op.inputs[1])), None),
                   jvp=fused_grad_jvp(lambda: RELU6_GRAD, 0), batch="safe",
                   args=("gradients", "features"))
RELU6 = defop("Relu6", _relu6_kernel, shape=shape_rules.same,
              onnx=lambda ctx, op, x: ctx.node("Clip", [x, ctx.scalar_like(0, op.inputs[0]),
                                                         ctx.scalar_like(6, op.inputs[0])]),
              grad=lambda op, g: execute(RELU6_GRAD, (g, op.inputs[0])),
              jvp=_activation_jvp(lambda: RELU6_GRAD, "input"), batch="safe", args=("features",))


def relu6(features, name=None):
    """min(max(features, 0), 6). The gradient is 0 at 0 and at 6."""
    features = convert_to_tensor(features)
    return execute(RELU6, (features,), name=name)


# -- leaky_relu, elu, selu ----------------------------------------------------------------------
def _leaky_grad_kernel(g, x, alpha):
    return np.where(x > 0, g, g * g.dtype.type(alpha))


LEAKY_RELU_GRAD = defop("LeakyReluGrad", _leaky_grad_kernel, shape=_grad_helper_rule,
                        grad=lambda op, gg: (execute(LEAKY_RELU_GRAD, (gg, op.inputs[1]),
                                                     op.attrs), None),
                        jvp=fused_grad_jvp(lambda: LEAKY_RELU_GRAD, 0), batch="safe",
                        raw=lambda gradients, features, alpha=0.2, name=None: execute(
                            LEAKY_RELU_GRAD, binary_operands(gradients, features, "LeakyReluGrad"),
                            {"alpha": float(alpha)}, name))
LEAKY_RELU = defop("LeakyRelu", lambda x, alpha: np.where(x > 0, x, x * x.dtype.type(alpha)),
                   shape=float_rule("LeakyRelu"),
                   onnx=lambda ctx, op, x: ctx.node("LeakyRelu", [x], alpha=op.attrs["alpha"]),
                   grad=lambda op, g: execute(LEAKY_RELU_GRAD, (g, op.inputs[0]), op.attrs),
                   jvp=_activation_jvp(lambda: LEAKY_RELU_GRAD, "input"), batch="safe",
                   raw=lambda features, alpha=0.2, name=None: leaky_relu(features, alpha, name))


def leaky_relu(features, alpha=0.2, name=None):
    """features where positive, alpha * features elsewhere (gradient alpha at 0). Integer
    features are cast to float32 first, as TensorFlow's tf.nn.leaky_relu does."""
    x = convert_to_tensor(features)
    if x.dtype.is_integer:
        x = cast(x, dtypes.float32)
    return execute(LEAKY_RELU, (x,), {"alpha": float(alpha)}, name)


def _elu_kernel(x):
    return np.where(x > 0, x, np.expm1(np.minimum(x, _zero(x))))


def _elu_grad_grad(op, gg):
    g, y = op.inputs
    return elu_grad(gg, y), _negative_part(y, gg * g)


def _negative_part(y, value):
    return where(y < 0, value, zeros_like(value))


def _negative_side_jvp(own_op):
    """JVP of EluGrad/SeluGrad h(g, y), linear in g, with slope g in y where y < 0."""
    return fused_grad_jvp(own_op, 0, lambda y, g, h, dy: _negative_part(y, g * dy))


ELU_GRAD = defop("EluGrad", lambda g, y: np.where(y < 0, g * (y + _one(y)), g),
                 shape=_grad_helper_rule, grad=_elu_grad_grad,
                 jvp=_negative_side_jvp(lambda: ELU_GRAD), batch="safe",
                 args=("gradients", "outputs"))
ELU = defop("Elu", _elu_kernel, shape=float_rule("Elu"), onnx="Elu",
            grad=lambda op, g: elu_grad(g, op.outputs[0]), jvp=_activation_jvp(lambda: ELU_GRAD),
            batch="safe", args=("features",))


def _one(x):
    return x.dtype.type(1)


def elu_grad(gradients, outputs):
    """EluGrad: g where the elu output is >= 0, g * (output + 1) elsewhere."""
    return execute(ELU_GRAD, (gradients, outputs))


def elu(features, name=None):
    """features where positive, exp(features) - 1 elsewhere."""
    return execute(ELU, (_float_input(features, "Elu"),), name=name)


def _selu_kernel(x):
    t = x.dtype.type
    return np.where(x > 0, x * t(_SELU_SCALE),
                    np.expm1(np.minimum(x, t(0))) * t(_SELU_SCALE * _SELU_ALPHA))


def _selu_grad_kernel(g, y):
    t = g.dtype.type
    return np.where(y < 0, g * (y + t(_SELU_SCALE * _SELU_ALPHA)), g * t(_SELU_SCALE))


SELU_GRAD = defop("SeluGrad", _selu_grad_kernel, shape=_grad_helper_rule,
                  grad=lambda op, gg: (execute(SELU_GRAD, (gg, op.inputs[1])),
                                       _negative_part(op.inputs[1], gg * op.inputs[0])),
                  jvp=_negative_side_jvp(lambda: SELU_GRAD), batch="safe",
                  args=("gradients", "outputs"))
SELU = defop("Selu", _selu_kernel, shape=float_rule("Selu"), onnx="Selu",
             grad=lambda op, g: execute(SELU_GRAD, (g, op.outputs[0])),
             jvp=_activation_jvp(lambda: SELU_GRAD), batch="safe", args=("features",))


def selu(features, name=None):
    """scale * elu with alpha = 1.6733, scale = 1.0507 (self-normalizing)."""
    return execute(SELU, (_float_input(features, "Selu"),), name=name)


# -- compositions ---------------------------------------------------------------------------------
def gelu(features, approximate=False, name=None):
    """x * Phi(x) with Phi the normal CDF, or its tanh approximation. The exact form is
    TensorFlow's 0.5 x erfc(-x / sqrt(2)): unlike 1 + erf(x / sqrt(2)), erfc keeps its relative
    accuracy far into the negative side (gelu(-10) = -7.6e-23, not 0)."""
    x = _float_input(features, "Gelu")
    if approximate:
        inner = (x + x * x * x * 0.044715) * 0.7978845608028654
        return multiply(x * 0.5, tanh(inner) + 1.0, name=name)
    return multiply(x * 0.5, erfc(x * -0.7071067811865476), name=name)


def silu(features, beta=1.0, name=None):
    """features * sigmoid(beta * features) (also called swish)."""
    x = _float_input(features, "Silu")
    return multiply(x, sigmoid(x * beta if beta != 1.0 else x), name=name)


swish = silu


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x^2, axis), epsilon)) along `axis` (all axes when None)."""
    x = _float_input(x, "L2Normalize")
    axis = dim if axis is None else axis
    square_sum = reduce_sum(x * x, axis, keepdims=True)
    return multiply(x, rsqrt(maximum(square_sum, epsilon)), name=name)


# -- softmax and log_softmax ----------------------------------------------------------------------
def _softmax_kernel(x, axis):
    e = x - np.max(x, axis=axis, keepdims=True)
    np.exp(e, out=e)  # in place: one array of x's size, not two
    e /= np.sum(e, axis=axis, keepdims=True)
    return e


def _log_softmax_kernel(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _axis_rule(x, axis, **_):
    shape_rules.check_float(x)
    if x.shape.rank is not None:
        if x.shape.rank == 0:
            raise InvalidArgumentError(f"logits must have rank >= 1, got a scalar (shape "
                                       f"{x.shape}).")
        shape_rules.normalize_axes(axis, x.shape.rank)
    return x.shape, x.dtype


def _softmax_grad(op, g):
    y = op.outputs[0]
    return (g - reduce_sum(g * y, op.attrs["axis"], keepdims=True)) * y


def _log_softmax_grad(op, g):
    return g - reduce_sum(g, op.attrs["axis"], keepdims=True) * exp(op.outputs[0])


def _softmax_jvp(primals, tangents, outputs, axis):
    (u,), (y,) = tangents, outputs
    return (u - reduce_sum(u * y, axis, keepdims=True)) * y


def _log_softmax_jvp(primals, tangents, outputs, axis):
    u = tangents[0]
    return u - reduce_sum(exp(outputs[0]) * u, axis, keepdims=True)


SOFTMAX = defop("Softmax", _softmax_kernel, shape=_axis_rule, grad=_softmax_grad,
                jvp=_softmax_jvp, batch="negative_axis",
                onnx=lambda ctx, op, x: ctx.node("Softmax", [x], axis=op.attrs["axis"]),
                raw=lambda logits, name=None: softmax(logits, name=name))
LOG_SOFTMAX = defop("LogSoftmax", _log_softmax_kernel, shape=_axis_rule, grad=_log_softmax_grad,
                    jvp=_log_softmax_jvp, batch="negative_axis",
                    onnx=lambda ctx, op, x: ctx.node("LogSoftmax", [x], axis=op.attrs["axis"]),
                    raw=lambda logits, name=None: log_softmax(logits, name=name))


def _logits_input(logits, op_type):
    """A float tensor of rank >= 1 (TensorFlow's kernels refuse a scalar)."""
    x = _float_input(logits, op_type)
    if x.shape.rank == 0:
        raise InvalidArgumentError(f"{op_type}: logits must have >= 1 dimension, got a scalar "
                                   "(shape []); expand_dims it or give a vector of logits.")
    return x


def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits), axis), computed stably (axis defaults to the last)."""
    x = _logits_input(logits, "Softmax")
    return execute(SOFTMAX, (x,), {"axis": -1 if axis is None else axis_int(axis, "softmax: axis")}, name)


def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits), axis)), computed stably (axis defaults to the last)."""
    x = _logits_input(logits, "LogSoftmax")
    return execute(LOG_SOFTMAX, (x,), {"axis": -1 if axis is None else axis_int(axis, "log_softmax: axis")}, name)


# -- bias_add -------------------------------------------------------------------------------------
def _channel_axis(ndim, data_format):
    return 1 if data_format and data_format.startswith("NC") else ndim - 1


def _bias_add_kernel(value, bias, data_format, out=None):
    """value + bias along the channel axis (into `out`, value's buffer, when a plan says so)."""
    axis = _channel_axis(value.ndim, data_format)
    if value.ndim < 2 or bias.ndim != 1 or bias.shape[0] != value.shape[axis]:
        raise ValueError("bias does not match the channel dimension")
    if axis != value.ndim - 1:
        return np.add(value, bias.reshape((-1,) + (1,) * (value.ndim - 2)), out=out)
    if value.ndim > 2 and value.flags.c_contiguous and (out is None or out.flags.c_contiguous):
        # Speed: NumPy loops over the last axis innermost, so a bias of 16 channels costs one
        # inner loop per 16 values; the bias tiled over a whole row [W*C] adds the same values
        # in long runs (conv1's [32, 26, 26, 16] in 125 us instead of 250 us).
        row = value.shape[-2] * value.shape[-1]
        rows = out.reshape(-1, row) if out is not None else None
        total = np.add(value.reshape(-1, row), np.tile(bias, value.shape[-2]), out=rows)
        return out if out is not None else total.reshape(value.shape)
    return np.add(value, bias, out=out)


def _bias_add_rule(value, bias, data_format):
    shape_rules.check_same_dtype(value, bias)
    rank = value.shape.rank
    if rank is not None and rank < 2:
        raise InvalidArgumentError(f"value must have rank >= 2, got shape {value.shape}.")
    if bias.shape.rank is not None and bias.shape.rank != 1:
        raise InvalidArgumentError(f"bias must be a vector (rank 1), got shape {bias.shape}.")
    if rank is not None and bias.shape.rank == 1:
        channels = value.shape[_channel_axis(rank, data_format)]
        if None not in (channels, bias.shape[0]) and channels != bias.shape[0]:
            raise InvalidArgumentError(
                f"bias of shape {bias.shape} must have as many entries as the channel "
                f"dimension ({channels}) of value of shape {value.shape} "
                f"(data_format {data_format or 'NHWC'}).")
    return value.shape, value.dtype


def _bias_add_grad_kernel(g, data_format):
    axis = _channel_axis(g.ndim, data_format)
    if axis == g.ndim - 1 and g.dtype in (np.float32, np.float64) and g.size:
        # Speed: the [rows, C] gradient read as [rows / k, k*C] rows of about 256 values (k
        # channel vectors each), summed down the columns by einsum and the k partial sums
        # folded: 0.15 ms for ResNet-20's [64, 32, 32, 16] on one core, where np.sum over
        # three axes takes 1.6 ms. (A row of ones times the matrix, one BLAS gemv, took 0.11
        # ms, but OpenBLAS threads a gemv this large and its threads stall on a loaded
        # machine: 15 ms per call in the ResNet step's profile there.)
        c = g.shape[-1]
        rows = g.size // c
        k = max(1, 256 // c)
        while rows % k:
            k -= 1
        return np.einsum("ij->j", g.reshape(-1, k * c)).reshape(k, c).sum(axis=0)
    return np.sum(g, axis=tuple(i for i in range(g.ndim) if i != axis))


def _bias_add_grad_rule(g, data_format):
    if g.shape.rank is None:
        return TensorShape([None]), g.dtype
    return TensorShape([g.shape[_channel_axis(g.shape.rank, data_format)]]), g.dtype


# The adjoint of summing over the non-channel axes is broadcasting along them: adding the bias
# gradient to zeros of g's shape.
def _channel(op, rank):
    """The channel axis of BiasAdd's value (of rank `rank`) counted from the end."""
    fmt = op.get_attr("data_format")
    return -1 if not (fmt and fmt.startswith("NC")) else 1 - rank


def _bias_add_batched(op, grad):
    value = op.inputs[0]
    nb, rank = batch_rank(grad, op.outputs[0]), len(value.shape)
    channel = nb + rank + _channel(op, rank)
    axes = [a for a in range(nb, nb + rank) if a != channel]
    d_bias = None
    if needs_grad(op, 1):
        d_bias = execute(SUM, (grad,), {"axis": tuple(axes), "keepdims": False})
    return grad, d_bias


def _bias_add_grad_batched(op, grad):
    g = op.inputs[0]
    nb, rank = batch_rank(grad, op.outputs[0]), len(g.shape)
    kept = [1] * rank
    kept[rank + _channel(op, rank)] = g.shape[rank + _channel(op, rank)]
    batch = tuple(grad.shape[:nb])
    return broadcast_to(reshape(grad, batch + tuple(kept)), batch + tuple(g.shape))


def _bias_add_vmap(op, inputs, batched):
    """BiasAdd over a batch of examples: the same op, whose channel axis is counted from the end
    with channels last (a batched bias, or channels first, loops)."""
    fmt = op.get_attr("data_format")
    if batched[1] or (fmt and fmt.startswith("NC")):
        return None
    return (execute(BIAS_ADD, tuple(inputs), op.attrs),)


def _bias_add_grad_vmap(op, inputs, batched):
    """BiasAddGrad over a batch of examples: a sum over each example's non-channel axes."""
    rank = op.inputs[0].shape.rank
    if rank is None:
        return None
    channel = 1 + rank + _channel(op, rank)
    axes = tuple(a for a in range(1, 1 + rank) if a != channel)
    return (execute(SUM, (inputs[0],), {"axis": axes, "keepdims": False}),)


BIAS_ADD_GRAD = defop("BiasAddGrad", _bias_add_grad_kernel, shape=_bias_add_grad_rule,
                      grad=lambda op, gg: execute(BIAS_ADD, (zeros_like(op.inputs[0]), gg),
                                                  op.attrs), jvp=linear, batch=_bias_add_grad_batched,
                      vmap=_bias_add_grad_vmap,
                      raw=lambda out_backprop, data_format="NHWC", name=None: execute(
                          BIAS_ADD_GRAD, (convert_to_tensor(out_backprop),),
                          {"data_format": data_format}, name))
def _bias_add_onnx(ctx, op, value, bias):
    """Add, with the bias reshaped to [C, 1, ...] when channels come first."""
    rank = ctx.rank(op.inputs[0])
    axis = _channel_axis(rank, op.attrs["data_format"])
    if axis != rank - 1:
        bias = ctx.node("Reshape", [bias, ctx.int64s([-1] + [1] * (rank - axis - 1))])
    return ctx.node("Add", [value, bias])


BIAS_ADD = defop("BiasAdd", _bias_add_kernel, shape=_bias_add_rule, onnx=_bias_add_onnx,
                 inplace=_bias_add_kernel,
                 grad=lambda op, g: (g, execute(BIAS_ADD_GRAD, (g,), op.attrs)
                                     if needs_grad(op, 1) else None), jvp=linear,
                 batch=_bias_add_batched, vmap=_bias_add_vmap,
                 raw=lambda value, bias, data_format="NHWC", name=None: bias_add(
                     value, bias, data_format, name))


def bias_add(value, bias, data_format=None, name=None):
    """value + bias, with the vector `bias` added along the channel axis: the last one, or axis
    1 for data_format "NCHW"/"NC..."."""
    if data_format not in (None, "N...C", "NHWC", "NWC", "NDHWC", "NC...", "NCHW", "NCW", "NCDHW"):
        raise ValueError(f"bias_add: unsupported data_format {data_format!r}.")
    value, bias = binary_operands(value, bias, "BiasAdd")
    return execute(BIAS_ADD, (value, bias), {"data_format": data_format}, name)


def crelu(features, axis=-1, name=None):
    """concat([relu(x), relu(-x)], axis): the positive and the negative part, side by side."""
    x = convert_to_tensor(features)
    return concat([relu(x), relu(negative(x))], axis, name=name or "concat")


def xw_plus_b(x, weights, biases, name=None):
    """matmul(x, weights) + biases (a [batch, in] by [in, out] product plus an [out] bias)."""
    return bias_add(matmul(x, weights), biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """relu(matmul(x, weights) + biases)."""
    return relu(xw_plus_b(x, weights, biases), name=name)
