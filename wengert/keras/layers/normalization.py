"""BatchNormalization: normalize each feature by batch statistics while training, by moving
averages of them at inference.

For a feature (channel) c along `axis`, with mean m and variance v taken over every other axis,

    y = gamma * (x - m) / sqrt(v + epsilon) + beta

While training (training=True) m and v are the current batch's (`nn.moments`; the gradient flows
through them too, as in TensorFlow), and the non-trainable variables moving_mean and
moving_variance take a step towards them:

    moving <- moving - (moving - batch) * (1 - momentum)

by `assign_sub`, so the update also runs inside a compiled train step. At inference
(training=False or None, and always when the layer is frozen with trainable=False, as in
Keras 2) the moving averages are used instead and nothing is updated. The batch variance is the
biased one (divided by n), as in Keras's `moments`-based layer.
"""
from ...framework.tensor_shape import TensorShape
from ...ops.reshape_ops import reshape
from ...ops.math_ops import cast
from .. import constraints, initializers, regularizers
from ..saving.serialization import serialize_keras_object as _ser
from .base import Layer

__all__ = ["BatchNormalization"]


class BatchNormalization(Layer):
    """Batch normalization over `axis` (the features), with moving statistics for inference."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, synchronized=False, **kwargs):
        kwargs.pop("fused", None)  # Keras 2 argument: the choice of kernel, not of the math
        if kwargs.pop("renorm", False) or kwargs.pop("virtual_batch_size", None):
            raise NotImplementedError("BatchNormalization: renorm and virtual_batch_size are "
                                      "not available.")
        super().__init__(**kwargs)
        self.supports_masking = True
        self.synchronized = bool(synchronized)  # one process: the batch is already whole
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
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
        self.gamma = (self.add_weight("gamma", param_shape, initializer=self.gamma_initializer,
                                      regularizer=self.gamma_regularizer,
                                      constraint=self.gamma_constraint) if self.scale else None)
        self.beta = (self.add_weight("beta", param_shape, initializer=self.beta_initializer,
                                     regularizer=self.beta_regularizer,
                                     constraint=self.beta_constraint) if self.center else None)
        self.moving_mean = self.add_weight("moving_mean", param_shape, trainable=False,
                                           initializer=self.moving_mean_initializer)
        self.moving_variance = self.add_weight("moving_variance", param_shape, trainable=False,
                                               initializer=self.moving_variance_initializer)
        self.built = True

    def _broadcast(self, param):
        if param is None or self._broadcast_shape is None:
            return param
        return reshape(param, self._broadcast_shape)

    # -- computing ------------------------------------------------------------------------------
    def call(self, inputs, training=None):
        from ...ops.nn import batch_norm
        if not inputs.dtype.is_floating:
            inputs = cast(inputs, self._dtype)
        gamma, beta = self._broadcast(self.gamma), self._broadcast(self.beta)
        if training and self.trainable:
            mean, variance = batch_norm.moments(inputs, self._reduction_axes,
                                              keepdims=self._broadcast_shape is not None)
            self._update_moving(mean, variance)
        else:
            mean = self._broadcast(self.moving_mean)
            variance = self._broadcast(self.moving_variance)
        return batch_norm.batch_normalization(inputs, mean, variance, beta, gamma, self.epsilon)

    def _update_moving(self, mean, variance):
        if self._broadcast_shape is not None:
            mean = reshape(mean, self.moving_mean.shape)
            variance = reshape(variance, self.moving_variance.shape)
        decay = 1.0 - self.momentum
        self.moving_mean.assign_sub((self.moving_mean - mean) * decay)
        self.moving_variance.assign_sub((self.moving_variance - variance) * decay)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(axis=self.axis, momentum=self.momentum, epsilon=self.epsilon,
                      center=self.center, scale=self.scale,
                      beta_initializer=_ser(self.beta_initializer),
                      gamma_initializer=_ser(self.gamma_initializer),
                      moving_mean_initializer=_ser(self.moving_mean_initializer),
                      moving_variance_initializer=_ser(self.moving_variance_initializer),
                      beta_regularizer=_ser(self.beta_regularizer),
                      gamma_regularizer=_ser(self.gamma_regularizer),
                      beta_constraint=_ser(self.beta_constraint),
                      gamma_constraint=_ser(self.gamma_constraint),
                      synchronized=self.synchronized)
        return config
