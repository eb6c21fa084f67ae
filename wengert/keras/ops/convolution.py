"""Keras 3's convolutions (`keras.ops.nn.conv`, `conv_transpose`, `depthwise_conv`,
`separable_conv`) over wengert's tf.nn convolutions, with Keras's arguments: `strides` and
`dilation_rate` as an int or one per spatial axis, `padding` "valid" or "same", `data_format`
"channels_last" (the default) or "channels_first", kernels laid out [*window, in, out].

Channels-first inputs are transposed to channels-last and back, so every convolution runs in
the layout wengert's kernels know. A `conv` kernel whose input depth divides the input's channel
count runs as a grouped convolution: the channels split into G = C / kernel_in groups, group g
convolved with output channels [g O/G, (g+1) O/G) of the kernel. `conv_transpose` computes the
output size as Keras does: along each axis, with k' = (k - 1) d + 1,
    valid: (n - 1) s + k' + output_padding  (output_padding defaults to max(k', s) - k')
    same:  n s, or (n - 1) s + k % 2 + output_padding when output_padding is given.
A depthwise (or separable) convolution with both a stride and a dilation above 1 runs at stride 1
(padded by hand for "same") and keeps every s-th output, as Keras's TensorFlow backend does.
"""
from ...framework.tensor import is_tensor
from ...ops.array_ops import concat, split, stack
from ...ops.cast_ops import cast
from ...ops.nn.conv.compositions import conv_transpose as _conv_transpose, convolution
from ...ops.nn.conv.conv2d import conv2d, depthwise_conv2d
from ...ops.creation_ops import shape as dynamic_shape
from ...ops.pad_ops import pad
from ...ops.reshape_ops import expand_dims, squeeze, transpose
from .core import convert_to_tensor

__all__ = ["conv", "conv_transpose", "depthwise_conv", "separable_conv"]


def data_format_of(data_format):
    """Keras's data_format, None meaning channels_last."""
    data_format = "channels_last" if data_format is None else data_format
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"keras.ops: data_format must be 'channels_last' or 'channels_first', "
                         f"got {data_format!r}.")
    return data_format


def to_channels_last(x, data_format):
    if data_format == "channels_last":
        return x
    rank = x.shape.rank
    return transpose(x, [0] + list(range(2, rank)) + [1])


def from_channels_last(x, data_format):
    if data_format == "channels_last":
        return x
    rank = x.shape.rank
    return transpose(x, [0, rank - 1] + list(range(1, rank - 1)))


def per_axis(value, n, what):
    """An int or a sequence as n ints."""
    values = (value,) * n if isinstance(value, int) else tuple(int(v) for v in value)
    if len(values) != n:
        raise ValueError(f"keras.ops: {what} must be an int or {n} ints, got {value!r}.")
    return values


def _padding(padding, what):
    if str(padding).lower() not in ("valid", "same"):
        raise ValueError(f"{what}: padding must be 'valid' or 'same', got {padding!r}.")
    return str(padding).upper()


def _grouped(x, kernel, strides, padding, dilations):
    channels, depth = x.shape[-1], kernel.shape[-2]
    if channels is None or depth is None or channels == depth:
        return convolution(x, kernel, strides, padding, dilations=dilations)
    if channels % depth:
        raise ValueError(f"conv: the input's {channels} channels must be a multiple of the "
                         f"kernel's input depth {depth} (kernel shape {kernel.shape}).")
    groups = channels // depth
    parts = zip(split(x, groups, axis=-1), split(kernel, groups, axis=-1))
    return concat([convolution(xi, ki, strides, padding, dilations=dilations)
                   for xi, ki in parts], axis=-1)


def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (N = 1, 2, 3) of inputs [batch, *spatial, C] with kernel
    [*window, C / groups, O]."""
    data_format = data_format_of(data_format)
    x, kernel = convert_to_tensor(inputs), convert_to_tensor(kernel)
    n = x.shape.rank - 2
    x = to_channels_last(x, data_format)
    out = _grouped(x, kernel, per_axis(strides, n, "strides"), _padding(padding, "conv"),
                   per_axis(dilation_rate, n, "dilation_rate"))
    return from_channels_last(out, data_format)


def _transpose_length(n, k, s, padding, output_padding, d):
    k = (k - 1) * d + 1
    if padding == "VALID":
        extra = max(k, s) - k if output_padding is None else output_padding
        return (n - 1) * s + k + extra
    return n * s if output_padding is None else (n - 1) * s + k % 2 + output_padding


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None,
                   data_format=None, dilation_rate=1):
    """The transpose (gradient) of conv: inputs [batch, *spatial, C] with kernel
    [*window, O, C] give [batch, *spatial', O]."""
    data_format = data_format_of(data_format)
    x, kernel = convert_to_tensor(inputs), convert_to_tensor(kernel)
    n = x.shape.rank - 2
    x = to_channels_last(x, data_format)
    strides = per_axis(strides, n, "strides")
    dilations = per_axis(dilation_rate, n, "dilation_rate")
    pads = (None,) * n if output_padding is None else per_axis(output_padding, n,
                                                               "output_padding")
    padding = _padding(padding, "conv_transpose")
    sizes = dynamic_shape(x)
    spatial = [_transpose_length(x.shape[1 + i] if x.shape[1 + i] is not None else sizes[1 + i],
                                 kernel.shape[i], strides[i], padding, pads[i], dilations[i])
               for i in range(n)]
    out_shape = [sizes[0] if x.shape[0] is None else x.shape[0]] + spatial + [kernel.shape[-2]]
    if any(is_tensor(v) for v in out_shape):
        out_shape = stack([cast(v, "int32") for v in out_shape])
    out = _conv_transpose(x, kernel, out_shape, strides, padding, dilations=dilations)
    return from_channels_last(out, data_format)


def _same_pads(x, kernel_size, strides, dilations):
    """x padded as "same" pads it for a strided, dilated window (static spatial sizes)."""
    pads = [[0, 0]]
    for i, k in enumerate(kernel_size):
        size = x.shape[1 + i]
        if size is None:
            raise ValueError("depthwise_conv: a stride and a dilation above 1 with 'same' "
                             f"padding need static spatial sizes; got shape {x.shape}.")
        span = (k - 1) * dilations[i] + 1
        total = max(((size + strides[i] - 1) // strides[i] - 1) * strides[i] + span - size, 0)
        pads.append([total // 2, total - total // 2])
    return pad(x, pads + [[0, 0]])


def _depthwise(x, kernel, strides, padding, dilations, pointwise=None):
    """2-D depthwise convolution (then an optional 1x1 pointwise one), channels-last."""
    if any(s > 1 for s in strides) and any(d > 1 for d in dilations):
        if padding == "SAME":
            x = _same_pads(x, kernel.shape[:2], strides, dilations)
        out = depthwise_conv2d(x, kernel, (1, 1, 1, 1), "VALID", dilations=dilations)
        out = out[:, ::strides[0], ::strides[1], :]
    else:
        out = depthwise_conv2d(x, kernel, (1,) + strides + (1,), padding, dilations=dilations)
    if pointwise is not None:
        out = conv2d(out, pointwise, 1, "VALID")
    return out


def _depthwise_family(what, inputs, kernel, strides, padding, data_format, dilation_rate,
                      pointwise=None):
    data_format = data_format_of(data_format)
    x, kernel = convert_to_tensor(inputs), convert_to_tensor(kernel)
    n = x.shape.rank - 2
    if n not in (1, 2):
        raise ValueError(f"{what}: inputs must have rank 3 (1-D) or 4 (2-D); got shape "
                         f"{x.shape}.")
    x = to_channels_last(x, data_format)
    strides = per_axis(strides, n, "strides")
    dilations = per_axis(dilation_rate, n, "dilation_rate")
    if n == 1:
        x, kernel = expand_dims(x, 1), expand_dims(kernel, 0)
        pointwise = None if pointwise is None else expand_dims(pointwise, 0)
        strides, dilations = (1,) + strides, (1,) + dilations
    out = _depthwise(x, kernel, strides, _padding(padding, what), dilations, pointwise)
    if n == 1:
        out = squeeze(out, [1])
    return from_channels_last(out, data_format)


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """Each channel convolved with its own kernels [*window, C, M]; C*M output channels."""
    return _depthwise_family("depthwise_conv", inputs, kernel, strides, padding, data_format,
                             dilation_rate)


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """depthwise_conv, then a 1x1 convolution with pointwise_kernel [*ones, C*M, O]."""
    return _depthwise_family("separable_conv", inputs, depthwise_kernel, strides, padding,
                             data_format, dilation_rate,
                             pointwise=convert_to_tensor(pointwise_kernel))
