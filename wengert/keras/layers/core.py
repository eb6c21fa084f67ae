"""Core layers: Dense, Flatten, Dropout, Activation, Reshape, Lambda.

Dense computes activation(inputs @ kernel + bias) with kernel [in, units] (glorot_uniform) and
bias [units] (zeros); inputs of rank > 2 contract their last axis with the kernel. Flatten keeps
the batch axis and flattens the rest. Dropout, when training, multiplies its input by a mask
m = keep / (1 - rate), keep ~ Bernoulli(1 - rate), so the expected output equals the input and
the gradient is m * g; at inference it is the identity. Eagerly the mask comes from the layer's
own NumPy Generator (seeded from `seed`, so two layers with one seed drop alike, as in Keras).
Inside Model.fit the mask is drawn the same way and fed to the compiled step as an argument
(`make_mask`, training.py), so eager and compiled steps compute the same numbers. Called in any
other traced function (wengert.function, a TF1 graph) it becomes the random op
`nn.dropout(inputs, rate, noise_shape, seed)`, which draws a fresh mask on every run.
Activation applies a named activation or a callable.
"""
import math

import numpy as np

from ...framework.context import state
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import constant
from ...framework.tensor_shape import TensorShape
from ...ops.math_ops import cast, multiply
from ...ops.matmul_ops import matmul
from ...ops.nn.activations import bias_add
from ...ops.nn.dropout import dropout
from ...ops.reshape_ops import reshape
from ...ops.sparse.matmul import sparse_dense_matmul
from ...ops.sparse.structure import map_values
from .. import activations, backend
from ..serialization import dump_lambda, serialize_keras_object as _ser
from .base import Layer, call_context
from .layer_utils import config_with_objects, contract_trailing
from .lora import LoRA
from .weight_options import add_weight_with_options, set_weight_options, weight_options_config

__all__ = ["Dense", "Flatten", "Dropout", "Activation", "Reshape", "Lambda"]


class Dense(LoRA, Layer):
    """A densely connected layer: activation(inputs @ kernel + bias) (enable_lora: lora.py)."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs):
        lora_rank, lora_alpha = kwargs.pop("lora_rank", None), kwargs.pop("lora_alpha", None)
        kwargs.pop("quantization_config", None)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self._init_lora(lora_rank, lora_alpha)
        units = int(units) if not isinstance(units, int) else units
        if units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive "
                             f"integer, got {units}.")
        self.supports_masking = True
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        set_weight_options(self, "kernel", kernel_initializer, kernel_regularizer,
                           kernel_constraint)
        set_weight_options(self, "bias", bias_initializer, bias_regularizer, bias_constraint)

    def build(self, input_shape):
        last_dim = TensorShape(input_shape)[-1] if len(input_shape) else None
        if last_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}.")
        self.kernel = add_weight_with_options(self, "kernel", (last_dim, self.units))
        self.bias = add_weight_with_options(self, "bias", (self.units,)) if self.use_bias else None
        self.built = True
        self._build_lora()

    def call(self, inputs):
        kernel = self._lora_effective()
        if isinstance(inputs, SparseTensor):  # keras.Input(sparse=True): a sparse product
            return self._finish(sparse_dense_matmul(map_values(cast, inputs, self._dtype),
                                                    kernel))
        if not inputs.dtype.is_floating:
            inputs = cast(inputs, self._dtype)
        if inputs.shape.rank == 2:
            outputs = matmul(inputs, kernel)
        else:
            outputs = contract_trailing(inputs, kernel, 1)
        return self._finish(outputs)

    def _finish(self, outputs):
        if self.use_bias:
            outputs = bias_add(outputs, self.bias)
        return self.activation(outputs)

    def compute_output_shape(self, input_shape):
        return TensorShape(tuple(input_shape)[:-1] + (self.units,))

    def get_config(self):
        config = super().get_config()
        config.update(units=self.units, activation=activations.serialize(self.activation),
                      use_bias=self.use_bias, **weight_options_config(self, "kernel", "bias"))
        return self._lora_config(config)


class Flatten(Layer):
    """Flattens every axis but the batch axis: [batch, d1, d2, ...] -> [batch, d1*d2*...]."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format

    def call(self, inputs):
        shape = tuple(inputs.shape)
        if len(shape) == 1:
            return reshape(inputs, (-1, 1))
        rest = shape[1:]
        if None in rest:
            return reshape(inputs, (-1 if shape[0] is None else shape[0], -1))
        return reshape(inputs, (-1, math.prod(rest)))

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        if len(shape) == 1:
            return TensorShape((shape[0], 1))
        rest = shape[1:]
        return TensorShape((shape[0], None if None in rest else math.prod(rest)))


class Dropout(Layer):
    """Sets a fraction `rate` of its inputs to zero while training, scaling the rest by
    1 / (1 - rate); the identity at inference (training=False or None)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0.0 <= float(rate) < 1.0:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1 (1 excluded), got {rate}.")
        self.rate = float(rate)
        self.noise_shape = noise_shape
        self.seed = seed
        self._rng = np.random.default_rng(backend.next_seed() if seed is None else seed)

    def _noise_shape(self, input_shape):
        if self.noise_shape is None:
            return tuple(input_shape)
        return tuple(d if d is not None else input_shape[i]
                     for i, d in enumerate(self.noise_shape))

    def make_mask(self, input_shape, dtype):
        """A fresh mask keep / (1 - rate) for an input of `input_shape` (a NumPy array)."""
        keep = self._rng.random(self._noise_shape(input_shape)) >= self.rate
        return keep.astype(dtype) * np.asarray(1.0 / (1.0 - self.rate), dtype)

    def call(self, inputs, training=None):
        if not training or self.rate == 0.0:
            return inputs
        fed = call_context.dropout_masks
        if fed is not None and id(self) in fed:
            return multiply(inputs, fed[id(self)])
        if state.graph is None:  # eagerly: the layer's own generator, as Keras's seeded layers
            mask = self.make_mask(tuple(inputs.shape), inputs.dtype.as_numpy_dtype)
            return multiply(inputs, constant(mask))
        # traced (wengert.function, a TF1 graph): a random op that draws a fresh mask every run,
        # its op seed taken from the layer's generator so equally seeded layers agree
        seed = int(self._rng.integers(0, 2**31 - 1))
        return dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=seed)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(rate=self.rate, noise_shape=self.noise_shape, seed=self.seed)
        return config


class Activation(Layer):
    """Applies an activation function ('relu', 'softmax', 'sigmoid', 'tanh', ... or a callable)."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(activation=activations.serialize(self.activation))
        return config


class Reshape(Layer):
    """Reshapes each sample to `target_shape` (the batch axis is kept; -1 allowed once)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        return reshape(inputs, (-1,) + self.target_shape)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        target = list(self.target_shape)
        if -1 in target and None not in shape[1:]:
            known = math.prod(d for d in target if d != -1)
            target[target.index(-1)] = math.prod(shape[1:]) // known
        return TensorShape((shape[0],) + tuple(None if d == -1 else d for d in target))


class Lambda(Layer):
    """Wraps a function of tensors as a layer (no weights). Saved as Keras does: a named
    function by name, a Python lambda as marshalled code, which loading refuses unless
    `safe_mode=False`."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self._lambda_output_shape = output_shape
        self.mask = mask
        self.supports_masking = mask is not None

    def call(self, inputs, mask=None, training=None):
        return self.function(inputs, **self.arguments)

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask

    def compute_output_shape(self, input_shape):
        shape = self._lambda_output_shape
        if shape is None:
            return Layer.compute_output_shape(self, input_shape)
        if callable(shape):
            return TensorShape(shape(input_shape))
        shape = tuple(shape)
        batch = tuple(input_shape)[0] if not isinstance(input_shape, list) else None
        return TensorShape((batch,) + shape)

    def get_config(self):
        config = super().get_config()
        fn = self.function
        config["function"] = dump_lambda(fn) if getattr(fn, "__name__", "") == "<lambda>" \
            else _ser(fn)
        if self._lambda_output_shape is not None:
            config["output_shape"] = _ser(self._lambda_output_shape)
        config["arguments"] = _ser(self.arguments)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config_with_objects(config, custom_objects, "function"))
