"""The convolution layers: Conv1D/2D/3D, Conv1D/2D/3DTranspose, SeparableConv1D/2D and
DepthwiseConv1D/2D (Keras 3's weights, names and output sizes; channels_last, channels_first by
transposing in and out).

Conv2D slides `filters` kernels of size kh x kw over the image: with kernel K [kh, kw, c_in,
filters] and bias b [filters],

    y[n, i, j, f] = activation(b[f] + sum_{di, dj, c} x[n, i*sh + di*dh, j*sw + dj*dw, c]
                                                    * K[di, dj, c, f])

(strides sh, sw; dilation rates dh, dw), computed by `nn.conv2d`, whose gradient rule gives the
gradients for the input and the kernel. The kernel starts glorot_uniform with
fan_in = kh * kw * c_in and fan_out = kh * kw * filters. Generally a convolution correlates
kernel K [k..., in, filters] with the input (strides s, dilation d): "valid" keeps whole windows
(n -> ceil((n - (k-1)d) / s)), "same" pads with zeros (n -> ceil(n / s)), Conv1D's "causal"
pads (k-1)d steps on the left only (sizes: conv_arithmetic.py). Conv1D is tf.nn.conv1d;
Conv3D is the sum over the kernel's depth taps of conv2d over depth slices (x[:, kd*d :: s]
as a batch of images). A transposed convolution is the adjoint (the gradient) of the
convolution: kernel [k..., filters, in]; sizes follow Keras's deconv_output_length
((n - 1) s + k - 2 pad + output_padding, or n s / n s + max(k - s, 0) without output_padding);
Conv1DTranspose is conv2d_transpose over a height of 1, Conv3DTranspose places each depth
tap's conv2d_transpose at depths i s + kd and crops the padding. Separable convolutions are a
depthwise convolution (each channel with its own depth_multiplier filters) followed by a 1x1
pointwise convolution, as tf.nn.separable_conv2d; depthwise ones stop after the first.
Conv1D/2D/3D(groups=g) split the input channels into g groups, each correlated with its own
filters / g filters (kernel [k..., in / g, filters]; keras.ops.conv); the transposed
convolutions have no groups, as in Keras 3.
Gradients come from the ops (conv2d, conv2d_transpose, depthwise_conv2d are differentiable).
"""
from ...framework.tensor_shape import TensorShape
from ...ops.nn.conv import conv2d as conv_ops
from .. import activations, backend_ops as K
from ..ops.convolution import conv as grouped_conv
from .base import Layer
from .conv_arithmetic import deconv_output_length, output_length
from .layer_utils import contract_trailing
from .lora import LoRA
from .weight_options import add_weight_with_options, set_weight_options, weight_options_config

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose",
           "SeparableConv1D", "SeparableConv2D", "DepthwiseConv1D", "DepthwiseConv2D",
           "Convolution1D", "Convolution2D", "Convolution3D"]


def _ints(value, n, name):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) != n or any(v <= 0 for v in value):
        raise ValueError(f"The `{name}` argument must be a tuple of {n} positive integers. "
                         f"Received: {name}={value}")
    return value


def _groups(groups, filters, layer):
    groups = int(groups)
    if groups <= 0:
        raise ValueError(f"{layer}: `groups` must be a positive integer. Received: "
                         f"groups={groups}")
    if filters is not None and filters % groups:
        raise ValueError(f"{layer}: the number of filters must be evenly divisible by the "
                         f"number of groups. Received: groups={groups}, filters={filters}.")
    return groups


class _Conv(Layer):
    """Arguments, weights, configs and layout handling of the convolutions."""

    _rank = None
    _transpose = False

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, output_padding=None, **kwargs):
        lora = kwargs.pop("lora_rank", None), kwargs.pop("lora_alpha", None)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if isinstance(self, LoRA):  # Conv1D/2D/3D: enable_lora, as Keras 3's (lora.py)
            self._init_lora(*lora)
        n = self._rank
        self.filters = None if filters is None else int(filters)
        self.kernel_size = _ints(kernel_size, n, "kernel_size")
        self.strides = _ints(strides, n, "strides")
        self.padding = str(padding).lower()
        allowed = ("valid", "same", "causal") if n == 1 and not self._transpose else (
            "valid", "same")
        if self.padding not in allowed:
            raise ValueError(f"The `padding` argument must be one of {allowed}. Received: "
                             f"padding={padding!r}")
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError(f"The `data_format` argument must be 'channels_last' or "
                             f"'channels_first'. Received: data_format={data_format!r}")
        self.dilation_rate = _ints(dilation_rate, n, "dilation_rate")
        if self._transpose and groups != 1:
            raise TypeError(f"{type(self).__name__}: Keras 3's transposed convolutions take no "
                            f"`groups`. Received: groups={groups}")
        self.groups = _groups(groups, self.filters, type(self).__name__)
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate "
                             f"> 1`. Received: strides={self.strides} and dilation_rate="
                             f"{self.dilation_rate}")
        self.output_padding = None if output_padding is None else _ints(
            output_padding, n, "output_padding") if not isinstance(output_padding, int) else \
            (output_padding,) * n
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        set_weight_options(self, "kernel", kernel_initializer, kernel_regularizer,
                           kernel_constraint)
        set_weight_options(self, "bias", bias_initializer, bias_regularizer, bias_constraint)

    # -- layout ---------------------------------------------------------------------------------
    def _to_last(self, x):
        if self.data_format == "channels_last":
            return x
        rank = x.shape.rank
        return K.transpose(x, [0] + list(range(2, rank)) + [1])

    def _from_last(self, x):
        if self.data_format == "channels_last":
            return x
        rank = x.shape.rank
        return K.transpose(x, [0, rank - 1] + list(range(1, rank - 1)))

    def _channels(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        if len(shape) != self._rank + 2:
            raise ValueError(f"Input 0 of layer {self.name!r} ({type(self).__name__}) is "
                             f"incompatible with the layer: expected ndim={self._rank + 2}, "
                             f"found ndim={len(shape)}. Full shape received: {shape}")
        channels = shape[-1] if self.data_format == "channels_last" else shape[1]
        if channels is None:
            raise ValueError(f"The channel dimension of the inputs to {type(self).__name__} "
                             f"should be defined. Found None. Full input shape: {shape}")
        return shape, channels

    def _add_bias(self, size):
        self.bias = add_weight_with_options(self, "bias", (size,)) if self.use_bias else None

    def build(self, input_shape):
        shape, channels = self._channels(input_shape)
        if channels % self.groups:
            raise ValueError(f"{type(self).__name__}: the number of input channels must be "
                             f"evenly divisible by the number of groups. Received groups="
                             f"{self.groups}, but the input has {channels} channels (full input "
                             f"shape is {shape}).")
        shape = self.kernel_size + ((self.filters, channels) if self._transpose else
                                    (channels // self.groups, self.filters))
        self.kernel = add_weight_with_options(self, "kernel", shape)
        self._add_bias(self.filters)
        self.built = True
        if isinstance(self, LoRA):
            self._build_lora()

    def _conv_kernel(self):
        """The kernel the convolution uses: W, or W + (alpha/rank) A@B under LoRA."""
        return self._lora_effective() if isinstance(self, LoRA) else self.kernel

    def call(self, inputs):
        if not inputs.dtype.is_floating:
            inputs = K.cast(inputs, self._dtype)
        x = self._to_last(inputs)
        x = self._convolve(x) if self.groups == 1 else self._convolve_groups(x)
        if self.use_bias:
            x = K.bias_add(x, self.bias)
        return self._from_last(self.activation(x))

    def _convolve_groups(self, x):
        """The grouped convolution: keras.ops.conv splits the channels into `groups` and
        correlates each with its own filters / groups kernels."""
        padding = self.padding
        if padding == "causal":
            x = K.pad(x, [[0, 0], [(self.kernel_size[0] - 1) * self.dilation_rate[0], 0],
                          [0, 0]])
            padding = "valid"
        return grouped_conv(x, self._conv_kernel(), self.strides, padding, "channels_last",
                            self.dilation_rate)

    def _spatial_out(self, shape):
        spatial = shape[1:-1] if self.data_format == "channels_last" else shape[2:]
        if self._transpose:
            pads = self.output_padding or (None,) * self._rank
            return tuple(deconv_output_length(n, k, self.padding, p, s, d) for n, k, p, s, d in
                         zip(spatial, self.kernel_size, pads, self.strides, self.dilation_rate))
        padding = "same" if self.padding == "causal" else self.padding
        return tuple(output_length(n, k, padding, s, d) for n, k, s, d in
                     zip(spatial, self.kernel_size, self.strides, self.dilation_rate))

    def _out_channels(self, channels):
        return self.filters

    def compute_output_shape(self, input_shape):
        shape, channels = self._channels(input_shape)
        spatial, out = self._spatial_out(shape), self._out_channels(channels)
        if self.data_format == "channels_last":
            return TensorShape((shape[0],) + spatial + (out,))
        return TensorShape((shape[0], out) + spatial)

    def get_config(self):
        config = super().get_config()
        config.update(filters=self.filters, kernel_size=list(self.kernel_size),
                      strides=list(self.strides), padding=self.padding,
                      data_format=self.data_format, dilation_rate=list(self.dilation_rate),
                      groups=self.groups, activation=activations.serialize(self.activation),
                      use_bias=self.use_bias, **weight_options_config(self, "kernel", "bias"))
        if self._transpose:
            config["output_padding"] = None if self.output_padding is None else list(
                self.output_padding)
            config.pop("groups")
        return self._lora_config(config) if isinstance(self, LoRA) else config


def _same_pads(length, kernel, stride, dilation):
    effective = (kernel - 1) * dilation + 1
    out = -(-length // stride)
    total = max((out - 1) * stride + effective - length, 0)
    return total // 2, total - total // 2


class Conv1D(LoRA, _Conv):
    """1-D convolution over [batch, steps, channels] ("causal" padding allowed)."""
    _rank = 1

    def _convolve(self, x):
        padding = self.padding
        if padding == "causal":
            x = K.pad(x, [[0, 0], [(self.kernel_size[0] - 1) * self.dilation_rate[0], 0],
                          [0, 0]])
            padding = "valid"
        return conv_ops.conv1d(x, self._conv_kernel(), self.strides[0], padding.upper(),
                               dilations=self.dilation_rate[0])


class Conv2D(LoRA, _Conv):
    """2-D convolution over [batch, rows, cols, channels] (tf.nn.conv2d)."""
    _rank = 2

    def _convolve(self, x):
        return conv_ops.conv2d(x, self._conv_kernel(), strides=(1,) + self.strides + (1,),
                               padding=self.padding.upper(),
                               dilations=(1,) + self.dilation_rate + (1,))


class Conv3D(LoRA, _Conv):
    """3-D convolution over [batch, depth, rows, cols, channels]."""
    _rank = 3

    def _convolve(self, x):
        (kd, _, _), (sd, sh, sw), (dd, dh, dw) = (self.kernel_size, self.strides,
                                                  self.dilation_rate)
        depth = x.shape[1]
        if self.padding == "same":
            before, after = _same_pads(depth, kd, sd, dd)
            x = K.pad(x, [[0, 0], [before, after], [0, 0], [0, 0], [0, 0]])
            depth += before + after
        out_depth = output_length(depth, kd, "valid", sd, dd)
        dims, kernel = K.shape(x), self._conv_kernel()
        total = None
        for tap in range(kd):
            start = tap * dd
            part = x[:, start:start + (out_depth - 1) * sd + 1:sd]
            images = K.reshape(part, K.concat([[-1], dims[2:]], 0))
            y = conv_ops.conv2d(images, kernel[tap], strides=(1, sh, sw, 1),
                                padding=self.padding.upper(), dilations=(1, dh, dw, 1))
            total = y if total is None else total + y
        y_dims = K.shape(total)
        return K.reshape(total, K.concat([[dims[0], out_depth], y_dims[1:]], 0))


class Conv2DTranspose(_Conv):
    """Transposed 2-D convolution (the adjoint of Conv2D)."""
    _rank = 2
    _transpose = True

    def _convolve(self, x):
        out_h, out_w = self._spatial_out((None,) + tuple(x.shape)[1:3] + (None,))
        batch = K.shape(x)[0]
        return conv_ops.conv2d_transpose(
            x, self.kernel, K.stack([batch, out_h, out_w, self.filters]),
            strides=(1,) + self.strides + (1,), padding=self.padding.upper(),
            dilations=(1,) + self.dilation_rate + (1,))

    def _spatial_out(self, shape):
        spatial = shape[1:-1]
        pads = self.output_padding or (None,) * self._rank
        return tuple(deconv_output_length(n, k, self.padding, p, s, d) for n, k, p, s, d in
                     zip(spatial, self.kernel_size, pads, self.strides, self.dilation_rate))

    def compute_output_shape(self, input_shape):
        shape, channels = self._channels(input_shape)
        last = shape if self.data_format == "channels_last" else (
            (shape[0],) + shape[2:] + (shape[1],))
        spatial = self._spatial_out(last)
        if self.data_format == "channels_last":
            return TensorShape((shape[0],) + spatial + (self.filters,))
        return TensorShape((shape[0], self.filters) + spatial)


class Conv1DTranspose(Conv2DTranspose):
    """Transposed 1-D convolution: conv2d_transpose over a height of 1."""
    _rank = 1

    def _convolve(self, x):
        (out_w,) = self._spatial_out((None, x.shape[1], None))
        batch = K.shape(x)[0]
        y = conv_ops.conv2d_transpose(
            K.expand_dims(x, 1), K.expand_dims(self.kernel, 0),
            K.stack([batch, 1, out_w, self.filters]), strides=(1, 1, self.strides[0], 1),
            padding=self.padding.upper(), dilations=(1, 1, self.dilation_rate[0], 1))
        return K.squeeze(y, 1)


class Conv3DTranspose(Conv2DTranspose):
    """Transposed 3-D convolution (depth taps placed at depths i * stride + tap)."""
    _rank = 3

    def _convolve(self, x):
        if self.dilation_rate[0] != 1:
            raise NotImplementedError("Conv3DTranspose: dilation along depth is not available.")
        kd, sd = self.kernel_size[0], self.strides[0]
        depth = x.shape[1]
        out_d, out_h, out_w = self._spatial_out((None,) + tuple(x.shape)[1:4] + (None,))
        dims = K.shape(x)
        batch = dims[0]
        images = K.reshape(x, K.concat([[-1], dims[2:]], 0))
        full = (depth - 1) * sd + kd
        total = None
        for tap in range(kd):
            y = conv_ops.conv2d_transpose(
                images, self.kernel[tap], K.stack([batch * depth, out_h, out_w, self.filters]),
                strides=(1,) + self.strides[1:] + (1,), padding=self.padding.upper(),
                dilations=(1,) + self.dilation_rate[1:] + (1,))
            y = K.reshape(y, K.stack([batch, depth, 1, out_h, out_w, self.filters]))
            if sd > 1:  # interleave stride - 1 empty depths after each input depth
                y = K.pad(y, [[0, 0], [0, 0], [0, sd - 1], [0, 0], [0, 0], [0, 0]])
            y = K.reshape(y, K.stack([batch, depth * sd, out_h, out_w, self.filters]))
            y = y[:, :(depth - 1) * sd + 1]
            y = K.pad(y, [[0, 0], [tap, kd - 1 - tap], [0, 0], [0, 0], [0, 0]])
            total = y if total is None else total + y
        if self.padding == "same":
            crop = max(kd - sd, 0)
            start = crop // 2
        else:
            start = 0
        if out_d > full - start:
            total = K.pad(total, [[0, 0], [0, out_d - (full - start)], [0, 0], [0, 0], [0, 0]])
        return total[:, start:start + out_d]


class _DepthwiseBase(_Conv):
    """depthwise_conv2d over the input's channels (depth_multiplier filters each)."""

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(None, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         kernel_initializer=depthwise_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=depthwise_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=depthwise_constraint,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = int(depth_multiplier)

    def _out_channels(self, channels):
        return channels * self.depth_multiplier

    def get_config(self):
        """_Conv's config with the kernel's options under Keras's depthwise names, and without
        `filters` where there are none (DepthwiseConv: depth_multiplier per input channel)."""
        config = super().get_config()
        config.pop("groups", None)
        if self.filters is None:
            config.pop("filters", None)
        config["depth_multiplier"] = self.depth_multiplier
        for kind in ("initializer", "regularizer", "constraint"):
            config[f"depthwise_{kind}"] = config.pop(f"kernel_{kind}")
        return config

    def _depthwise(self, x, kernel):
        if self._rank == 1:
            y = conv_ops.depthwise_conv2d(K.expand_dims(x, 1), K.expand_dims(kernel, 0),
                                          strides=(1, 1, self.strides[0], 1),
                                          padding=self.padding.upper(),
                                          dilations=(1, self.dilation_rate[0]))
            return K.squeeze(y, 1)
        return conv_ops.depthwise_conv2d(x, kernel, strides=(1,) + self.strides + (1,),
                                         padding=self.padding.upper(),
                                         dilations=self.dilation_rate)


class DepthwiseConv2D(_DepthwiseBase):
    """Each input channel convolved with its own depth_multiplier kernels."""
    _rank = 2

    def build(self, input_shape):
        _, channels = self._channels(input_shape)
        self.kernel = add_weight_with_options(self, "kernel", self.kernel_size + (
            channels, self.depth_multiplier))
        self._add_bias(channels * self.depth_multiplier)
        self.built = True

    def _convolve(self, x):
        return self._depthwise(x, self.kernel)


class DepthwiseConv1D(DepthwiseConv2D):
    """Depthwise convolution over [batch, steps, channels]."""
    _rank = 1


class SeparableConv2D(_DepthwiseBase):
    """Depthwise convolution, then a 1x1 pointwise convolution to `filters` channels."""
    _rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(kernel_size, strides=strides, padding=padding,
                         depth_multiplier=depth_multiplier, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         depthwise_initializer=depthwise_initializer,
                         bias_initializer=bias_initializer,
                         depthwise_regularizer=depthwise_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         depthwise_constraint=depthwise_constraint,
                         bias_constraint=bias_constraint, **kwargs)
        self.filters = int(filters)
        set_weight_options(self, "pointwise", pointwise_initializer, pointwise_regularizer,
                           pointwise_constraint)

    def _out_channels(self, channels):
        return self.filters

    def build(self, input_shape):
        _, channels = self._channels(input_shape)
        self.depthwise_kernel = add_weight_with_options(
            self, "depthwise_kernel", self.kernel_size + (channels, self.depth_multiplier),
            "kernel")
        self.pointwise_kernel = add_weight_with_options(
            self, "pointwise_kernel",
            (1,) * self._rank + (channels * self.depth_multiplier, self.filters), "pointwise")
        self._add_bias(self.filters)
        self.built = True

    def _convolve(self, x):
        y = self._depthwise(x, self.depthwise_kernel)
        return _pointwise(y, self.pointwise_kernel, self.filters)

    def get_config(self):
        config = super().get_config()
        config.update(weight_options_config(self, "pointwise"))
        return config


def _pointwise(y, kernel, filters):
    return contract_trailing(y, K.reshape(kernel, [-1, filters]), 1)


class SeparableConv1D(SeparableConv2D):
    """SeparableConv2D over [batch, steps, channels]."""
    _rank = 1


Convolution1D, Convolution2D, Convolution3D = Conv1D, Conv2D, Conv3D
