"""The normalization layers: BatchNormalization (batch statistics), LayerNormalization,
GroupNormalization and UnitNormalization (per-sample statistics).

BatchNormalization: normalize each feature by batch statistics while training, by moving
averages of them at inference. For a feature (channel) c along `axis`, with mean m and
variance v taken over every other axis,

    y = gamma * (x - m) / sqrt(v + epsilon) + beta

While training (training=True) m and v are the current batch's (`nn.moments`; the gradient flows
through them too, as in TensorFlow), and the non-trainable variables moving_mean and
moving_variance take a step towards them:

    moving <- moving - (moving - batch) * (1 - momentum)

by `assign_sub`, so the update also runs inside a compiled train step. At inference
(training=False or None, and always when the layer is frozen with trainable=False, as in
Keras 2) the moving averages are used instead and nothing is updated. The batch variance is the
biased one (divided by n), as in Keras's `moments`-based layer.
With renorm=True (Ioffe 2017, Keras 3's form) training also keeps renorm_mean and renorm_stddev
(momentum renorm_momentum) and moving_stddev; with s = sqrt(v + epsilon),
    r = s / max(renorm_stddev, sqrt(epsilon)),   d = (m - renorm_mean) / max(...)
clipped to [rmin, rmax] and [-dmax, dmax] by renorm_clipping, and, with r and d held constant
for the gradient, y = (r gamma) (x - m) / s + (d gamma + beta). Afterwards each statistic moves
as stat <- stat momentum + batch (1 - momentum), and moving_variance becomes
relu(moving_stddev^2 - epsilon); the three renorm arguments are in the config when renorm is
on (a config without them is Keras's defaults). `synchronized` is accepted and needs nothing:
one process sees the whole batch. With a mask (one axis fewer than the inputs, as Keras 3
takes it) the batch statistics are over the unmasked positions only: with c the count of kept
positions, m = sum(kept x) / (c + 1e-7) and v = sum(kept (x - m)^2) / (c + 1e-7).

LayerNormalization normalizes each sample over `axis` (one axis or a list; the last by default):
with mean m and biased variance v over those axes,
    y = (x - m) * gamma / sqrt(v + epsilon) + beta
computed as x * inv + (beta - m * inv), inv = gamma * rsqrt(v + epsilon), as Keras does; gamma
and beta have the shape of the normalized axes (weights gamma, then beta; `scale` / `center`
turn them off). With rms_scaling, y = x * gamma / sqrt(mean(x^2) + epsilon).
GroupNormalization splits the channel axis into `groups` groups and normalizes each group of
each sample over the group's channels and every other non-batch axis, then scales and shifts
per channel (gamma, beta [channels]); groups=-1 is instance normalization.
UnitNormalization scales each sample to unit L2 norm over `axis`: x / sqrt(max(sum x^2, 1e-12)).
float16 inputs are normalized in float32. Gradients come from the composed ops, except in
BatchNormalization's training step without mask or renorm for float32 inputs of rank
2-5 with the features last or second: there the normalization and the batch statistics are
one op, FusedBatchNormV3 (ops/nn/batch_norm.py: the same values to float rounding, its own
gradient op FusedBatchNormGradV3, second derivatives included), as TensorFlow's fused kernel.
"""
from ...framework import dtypes
from ...framework.tensor_shape import TensorShape
from ...ops.math_ops import cast
from ...ops.nn.batch_norm import batch_norm_training, batch_normalization, moments
from ...ops.reshape_ops import reshape
from .. import backend_ops as K, initializers
from ..serialization import serialize_keras_object as _ser
from .base import Layer
from .weight_options import add_weight_with_options, set_weight_options, weight_options_config

__all__ = ["BatchNormalization", "LayerNormalization", "GroupNormalization",
           "UnitNormalization"]


# -- batch statistics -------------------------------------------------------------------------
# (rank, "last" or the index of the feature axis) -> the data format of FusedBatchNormV3
_FUSED_FORMATS = {(2, "last"): "NC", (3, "last"): "NWC", (4, "last"): "NHWC",
                  (5, "last"): "NDHWC", (3, 1): "NCW", (4, 1): "NCHW", (5, 1): "NCDHW"}


class BatchNormalization(Layer):
    """Batch normalization over `axis` (the features), with moving statistics for inference."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, synchronized=False, **kwargs):
        kwargs.pop("fused", None)  # Keras 2 argument: the choice of kernel, not of the math
        if kwargs.pop("virtual_batch_size", None):
            raise NotImplementedError("BatchNormalization: virtual_batch_size (Keras 2) is not "
                                      "available; Keras 3 has no such argument.")
        self.renorm = bool(renorm)
        self.renorm_clipping = _renorm_clipping(renorm_clipping) if renorm else renorm_clipping
        self.renorm_momentum = float(renorm_momentum)
        super().__init__(**kwargs)
        self.supports_masking = True
        self.synchronized = bool(synchronized)  # one process: the batch is already whole
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        set_weight_options(self, "beta", beta_initializer, beta_regularizer, beta_constraint)
        set_weight_options(self, "gamma", gamma_initializer, gamma_regularizer, gamma_constraint)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)

    # -- shapes ---------------------------------------------------------------------------------
    def _feature_axes(self, rank):
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        out = []
        for a in axes:
            if not -rank <= a < rank:
                raise ValueError(f"Invalid axis {a} of BatchNormalization layer {self.name!r} "
                                 f"for an input of rank {rank}.")
            out.append(a % rank)
        if len(set(out)) != len(out):
            raise ValueError(f"Duplicate axis in BatchNormalization axis={self.axis}.")
        return sorted(out)

    def build(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        rank = len(shape)
        if rank == 0:
            raise ValueError(f"BatchNormalization layer {self.name!r} needs inputs of rank >= 1.")
        self._axes = self._feature_axes(rank)
        param_shape = tuple(shape[a] for a in self._axes)
        if None in param_shape:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension "
                             f"but the layer received an input with shape {shape}.")
        self._reduction_axes = [a for a in range(rank) if a not in self._axes]
        # parameters broadcast against the input as they are when the features are the last
        # axis; otherwise they are reshaped to [1, c, 1, 1]-like shapes
        self._broadcast_shape = (None if self._axes == [rank - 1] else
                                 [shape[a] if a in self._axes else 1 for a in range(rank)])
        self.gamma = add_weight_with_options(self, "gamma", param_shape) if self.scale else None
        self.beta = add_weight_with_options(self, "beta", param_shape) if self.center else None
        self.moving_mean = self.add_weight("moving_mean", param_shape, trainable=False,
                                           initializer=self.moving_mean_initializer)
        self.moving_variance = self.add_weight("moving_variance", param_shape, trainable=False,
                                               initializer=self.moving_variance_initializer)
        if self.renorm:
            self._build_renorm(param_shape)
        self.built = True

    def _build_renorm(self, param_shape):
        """moving_stddev, renorm_mean and renorm_stddev, Keras 3's renorm variables."""
        def stddev(shape, dtype=None):
            return K.sqrt(self.moving_variance_initializer(shape, dtype=dtype))

        self.moving_stddev = self.add_weight("moving_stddev", param_shape, trainable=False,
                                             initializer=stddev)
        self.renorm_mean = self.add_weight("renorm_mean", param_shape, trainable=False,
                                           initializer=self.moving_mean_initializer)
        self.renorm_stddev = self.add_weight("renorm_stddev", param_shape, trainable=False,
                                             initializer=stddev)

    def _broadcast(self, param):
        if param is None or self._broadcast_shape is None:
            return param
        return reshape(param, self._broadcast_shape)

    # -- computing ------------------------------------------------------------------------------
    def call(self, inputs, training=None, mask=None):
        if mask is not None and mask.shape.rank != inputs.shape.rank - 1:
            raise ValueError(f"BatchNormalization: the mask provided should be one dimension "
                             f"less than the inputs. Received: mask.shape={mask.shape}, "
                             f"inputs.shape={inputs.shape}")
        if not inputs.dtype.is_floating:
            inputs = cast(inputs, self._dtype)
        gamma, beta = self._broadcast(self.gamma), self._broadcast(self.beta)
        if training and self.trainable and self.renorm:
            return self._renormalized(inputs, gamma, beta, mask)
        if training and self.trainable and mask is not None:
            mean, variance = self._masked_moments(inputs, mask)
            self._update_moving(mean, variance)
            mean, variance = self._broadcast(mean), self._broadcast(variance)
        elif training and self.trainable and self._fused_format(inputs):
            return self._fused_training(inputs)
        elif training and self.trainable:
            mean, variance = moments(inputs, self._reduction_axes,
                                     keepdims=self._broadcast_shape is not None)
            self._update_moving(mean, variance)
        else:
            mean = self._broadcast(self.moving_mean)
            variance = self._broadcast(self.moving_variance)
        return batch_normalization(inputs, mean, variance, beta, gamma, self.epsilon)

    def _fused_format(self, inputs):
        """The data format of FusedBatchNormV3 that normalizes these inputs (one feature axis,
        last or second, of a rank 2-5 float32 input with float32 weights), or None."""
        rank = inputs.shape.rank
        if (rank is None or not 2 <= rank <= 5 or len(self._axes) != 1 or
                inputs.dtype != dtypes.float32 or
                inputs.dtype != self.moving_mean.dtype):
            return None
        axis = self._axes[0]
        return _FUSED_FORMATS.get((rank, "last" if axis == rank - 1 else axis))

    def _fused_training(self, inputs):
        """Training with the batch statistics in one op, FusedBatchNormV3, whose gradient
        (FusedBatchNormGradV3) has the chain rule through the mean and variance in it."""
        y, mean, variance = batch_norm_training(inputs, self.gamma, self.beta, self.epsilon,
                                                self._fused_format(inputs))
        self._update_moving(mean, variance)
        return y

    def _update_moving(self, mean, variance):
        if self._broadcast_shape is not None:
            mean = reshape(mean, self.moving_mean.shape)
            variance = reshape(variance, self.moving_variance.shape)
        decay = 1.0 - self.momentum
        self.moving_mean.assign_sub((self.moving_mean - mean) * decay)
        self.moving_variance.assign_sub((self.moving_variance - variance) * decay)

    def _masked_moments(self, inputs, mask):
        """Keras 3's mean and variance over the unmasked positions only (mask [..., steps] of
        the inputs less their feature axis), each divided by (count + 1e-7)."""
        keep = K.broadcast_to(K.expand_dims(K.cast(mask, "bool"), -1), K.shape(inputs))
        zeros = K.zeros_like(inputs)
        axes = self._reduction_axes
        count = K.reduce_sum(K.cast(keep, inputs.dtype), axes, keepdims=True) + 1e-7
        mean = K.reduce_sum(K.where(keep, inputs, zeros), axes, keepdims=True) / count
        spread = K.square(K.where(keep, inputs - mean, zeros))
        variance = K.reduce_sum(spread, axes, keepdims=True) / count
        shape = self.moving_mean.shape
        return reshape(mean, shape), reshape(variance, shape)

    def _renormalized(self, inputs, gamma, beta, mask=None):
        """Batch renormalization (see the module docstring): the batch statistics with the
        stopped corrections r, d folded into gamma and beta, then the statistics' update."""
        mean, variance = (moments(inputs, self._reduction_axes) if mask is None else
                          self._masked_moments(inputs, mask))
        stddev = K.sqrt(variance + self.epsilon)
        floor = K.sqrt(K.cast(self.epsilon, mean.dtype))
        renorm_stddev = K.maximum(K.cast(self.renorm_stddev, mean.dtype), floor)
        r = stddev / renorm_stddev
        d = (mean - K.cast(self.renorm_mean, mean.dtype)) / renorm_stddev
        r, d = _clipped(r, d, self.renorm_clipping)
        r, d = self._broadcast(K.stop_gradient(r)), self._broadcast(K.stop_gradient(d))
        scale = r if gamma is None else r * gamma
        offset = d if gamma is None else d * gamma
        offset = offset if beta is None else offset + beta
        self._update_renorm(mean, stddev)
        return batch_normalization(inputs, self._broadcast(mean), self._broadcast(variance),
                                   offset, scale, self.epsilon)

    def _update_renorm(self, mean, stddev):
        def toward(var, value, momentum):
            var.assign(var * momentum + value * (1.0 - momentum))

        toward(self.renorm_mean, mean, self.renorm_momentum)
        toward(self.renorm_stddev, stddev, self.renorm_momentum)
        toward(self.moving_mean, mean, self.momentum)
        toward(self.moving_stddev, stddev, self.momentum)
        self.moving_variance.assign(K.relu(K.square(self.moving_stddev) - self.epsilon))

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(axis=self.axis, momentum=self.momentum, epsilon=self.epsilon,
                      center=self.center, scale=self.scale,
                      moving_mean_initializer=_ser(self.moving_mean_initializer),
                      moving_variance_initializer=_ser(self.moving_variance_initializer),
                      **weight_options_config(self, "beta", "gamma"),
                      synchronized=self.synchronized)
        if self.renorm:
            config.update(renorm=True, renorm_clipping=self.renorm_clipping,
                          renorm_momentum=self.renorm_momentum)
        return config


def _renorm_clipping(clipping):
    """Keras 3's checks of renorm_clipping: keys among rmax, rmin, dmax; rmin <= rmax; dmax
    >= 0."""
    clipping = dict(clipping or {})
    keys = ["rmax", "rmin", "dmax"]
    if set(clipping) - set(keys):
        raise ValueError(f"BatchNormalization: received invalid keys for `renorm_clipping`: "
                         f"{clipping}. Supported values: {keys}.")
    rmax, rmin, dmax = (clipping.get(k) for k in keys)
    if rmax is not None and rmin is not None and rmax < rmin:
        raise ValueError(f"BatchNormalization: rmax should be greater than rmin in "
                         f"`renorm_clipping`. Received: rmax={rmax}, rmin={rmin}.")
    if dmax is not None and dmax < 0:
        raise ValueError(f"BatchNormalization: dmax should be non-negative in "
                         f"`renorm_clipping`. Received: dmax={dmax}.")
    return clipping


def _clipped(r, d, clipping):
    """r and d clipped by renorm_clipping's bounds, each exact in the statistics' dtype."""
    if clipping.get("rmin") is not None:
        r = K.maximum(r, K.constant(clipping["rmin"], dtype=r.dtype))
    if clipping.get("rmax") is not None:
        r = K.minimum(r, K.constant(clipping["rmax"], dtype=r.dtype))
    if clipping.get("dmax") is not None:
        dmax = K.constant(clipping["dmax"], dtype=d.dtype)
        d = K.clip_by_value(d, -dmax, dmax)
    return r, d


# -- per-sample statistics ----------------------------------------------------------------------
def _axes(axis, rank, layer):
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"Axis {a} is out of bounds for input of rank {rank} "
                             f"({type(layer).__name__} {layer.name!r}).")
        out.append(a % rank)
    return sorted(out)


class _Affine(Layer):
    """gamma / beta arguments shared by the normalization layers."""

    def __init__(self, epsilon, center, scale, beta_initializer, gamma_initializer,
                 beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint,
                 **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.epsilon, self.center, self.scale = float(epsilon), bool(center), bool(scale)
        set_weight_options(self, "beta", beta_initializer, beta_regularizer, beta_constraint)
        set_weight_options(self, "gamma", gamma_initializer, gamma_regularizer, gamma_constraint)

    def _add_affine(self, shape, gamma=None, beta=None):
        gamma = self.scale if gamma is None else gamma
        beta = self.center if beta is None else beta
        self.gamma = add_weight_with_options(self, "gamma", shape) if gamma else None
        self.beta = add_weight_with_options(self, "beta", shape) if beta else None

    def _work(self, x):
        return K.cast(x, "float32") if x.dtype == dtypes.float16 else x

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(epsilon=self.epsilon, center=self.center, scale=self.scale,
                      **weight_options_config(self, "beta", "gamma"))
        return config


class LayerNormalization(_Affine):
    """Normalizes each sample over `axis` (Ba et al. 2016)."""

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 **kwargs):
        super().__init__(epsilon, center, scale, beta_initializer, gamma_initializer,
                         beta_regularizer, gamma_regularizer, beta_constraint,
                         gamma_constraint, **kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)
        self.rms_scaling = bool(rms_scaling)

    def build(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        self._norm_axes = _axes(self.axis, len(shape), self)
        param_shape = tuple(shape[a] for a in self._norm_axes)
        if None in param_shape:
            raise ValueError(f"LayerNormalization: the normalized axes {self.axis} of input "
                             f"shape {shape} must be known.")
        self._add_affine(param_shape, gamma=self.scale or self.rms_scaling,
                         beta=self.center and not self.rms_scaling)
        rank = len(shape)
        self._param_broadcast = None if self._norm_axes == list(range(
            rank - len(self._norm_axes), rank)) else [shape[a] if a in self._norm_axes else 1
                                                      for a in range(rank)]
        self.built = True

    def _broadcast(self, w):
        if w is None or self._param_broadcast is None:
            return w
        return K.reshape(w, self._param_broadcast)

    def call(self, inputs):
        x = self._work(inputs)
        gamma, beta = self._broadcast(self.gamma), self._broadcast(self.beta)
        if gamma is not None:
            gamma = K.cast(gamma, x.dtype)
        if beta is not None:
            beta = K.cast(beta, x.dtype)
        if self.rms_scaling:
            _, variance = moments(x, self._norm_axes, keepdims=True)
            out = x * K.rsqrt(variance + self.epsilon)
            if gamma is not None:
                out = out * gamma
        else:
            mean, variance = moments(x, self._norm_axes, keepdims=True)
            inv = K.rsqrt(variance + self.epsilon)
            if gamma is not None:
                inv = inv * gamma
            shift = -mean * inv
            if beta is not None:
                shift = shift + beta
            out = x * inv + shift
        return K.cast(out, inputs.dtype) if out.dtype != inputs.dtype else out

    def get_config(self):
        config = super().get_config()
        config.update(axis=self.axis, rms_scaling=self.rms_scaling)
        return config


class GroupNormalization(_Affine):
    """Normalizes groups of channels of each sample (Wu & He 2018)."""

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 **kwargs):
        super().__init__(epsilon, center, scale, beta_initializer, gamma_initializer,
                         beta_regularizer, gamma_regularizer, beta_constraint,
                         gamma_constraint, **kwargs)
        self.groups, self.axis = int(groups), int(axis)

    def build(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        channels = shape[self.axis]
        if channels is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined "
                             f"dimension but the layer received an input with shape {shape}.")
        if self.groups == -1:
            self.groups = channels
        if self.groups > channels:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number "
                             f"of channels ({channels}).")
        if channels % self.groups:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the "
                             f"number of channels ({channels}).")
        self._add_affine((channels,))
        self.built = True

    def call(self, inputs):
        x = self._work(inputs)
        rank = x.shape.rank
        axis = self.axis % rank
        channels = x.shape[axis]
        dims = K.shape(x)
        grouped_shape = K.concat([dims[:axis], [self.groups, channels // self.groups],
                                  dims[axis + 1:]], 0)
        grouped = K.reshape(x, grouped_shape)
        reduce = [a for a in range(1, rank + 1) if a != axis]
        mean, variance = moments(grouped, reduce, keepdims=True)
        param_shape = [1] * (rank + 1)
        param_shape[axis], param_shape[axis + 1] = self.groups, channels // self.groups
        inv = K.rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            inv = inv * K.cast(K.reshape(self.gamma, param_shape), x.dtype)
        shift = -mean * inv
        if self.beta is not None:
            shift = shift + K.cast(K.reshape(self.beta, param_shape), x.dtype)
        out = K.reshape(grouped * inv + shift, dims)
        return K.cast(out, inputs.dtype) if out.dtype != inputs.dtype else out

    def get_config(self):
        config = super().get_config()
        config.update(groups=self.groups, axis=self.axis)
        return config


class UnitNormalization(Layer):
    """Scales each sample to unit L2 norm over `axis`."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)
        self.supports_masking = True

    def call(self, inputs):
        x = K.cast(inputs, "float32") if inputs.dtype == dtypes.float16 else inputs
        squared = K.reduce_sum(K.square(x), axis=self.axis, keepdims=True)
        out = x * K.rsqrt(K.maximum(squared, K.cast(1e-12, x.dtype)))
        return K.cast(out, inputs.dtype) if out.dtype != inputs.dtype else out

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
