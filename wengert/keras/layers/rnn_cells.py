"""Recurrent cells: one time step of SimpleRNN, LSTM and GRU, and StackedRNNCells.

A cell maps (x_t, states) to (output, new states); `RNN` (rnn.py) runs it over time. Weights are
Keras's: kernel [input, k*units], recurrent_kernel [units, k*units], bias, with gate blocks in
Keras's order.
    SimpleRNNCell: h = act(x W + b + h_prev U)
    LSTMCell (gates i, f, c, o): z = x W + h_prev U + b; i, f, o = rec_act(z_i, z_f, z_o);
        c = f c_prev + i act(z_c); h = o act(c); states [h, c]. unit_forget_bias starts the
        forget block of b at 1.
    GRUCell (gates z, r, h): reset_after=True (TF 2's default, bias [2, 3 units]: input and
        recurrent biases): z, r = rec_act(x W_zr + b_zr + h U_zr + b'_zr);
        n = act(x W_h + b_h + r (h U_h + b'_h)); reset_after=False: n = act(x W_h + b_h +
        (r h) U_h). h_new = z h_prev + (1 - z) n.
Dropout (when training): one mask per call of the RNN, the same for every time step, on the
inputs (`dropout`) and on the previous state (`recurrent_dropout`); with recurrent dropout the
LSTM and GRU use one mask per gate (Keras's implementation 1), otherwise one. Masks are drawn
from the cell's NumPy generator eagerly, by a random op in traced functions.
"""
import numpy as np

from ...framework.context import state as context_state
from ...framework.tensor import constant
from ...framework.tensor_shape import TensorShape
from ...ops.nn.dropout import dropout as dropout_op
from ...util import nest
from .. import activations, backend, backend_ops as K
from ..serialization import deserialize_keras_object, serialize_keras_object as _ser
from .base import Layer
from .weight_options import add_weight_with_options, set_weight_options, weight_options_config

__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells", "DropoutRNNCell"]


class DropoutRNNCell:
    """Dropout masks for a cell, made once per RNN call and reused at every step."""

    dropout_mask_count = None

    def _make_masks(self, like, rate):
        count = self.dropout_mask_count
        masks = [self._one_mask(like, rate) for _ in range(count or 1)]
        return masks if count else masks[0]

    def _one_mask(self, like, rate):
        if context_state.graph is None:
            rng = self.__dict__.setdefault("_mask_rng", np.random.default_rng(
                backend.next_seed() if self.seed is None else self.seed))
            keep = rng.random(tuple(like.shape)) >= rate
            dtype = like.dtype.as_numpy_dtype
            return constant(keep.astype(dtype) * np.asarray(1.0 / (1.0 - rate), dtype))
        seed = backend.next_seed() if self.seed is None else int(self.seed)
        return dropout_op(K.ones_like(like), rate, seed=seed)

    def get_dropout_mask(self, step_input):
        if self.__dict__.get("_dropout_mask") is None and self.dropout > 0:
            self.__dict__["_dropout_mask"] = self._make_masks(step_input, self.dropout)
        return self.__dict__.get("_dropout_mask")

    def get_recurrent_dropout_mask(self, step_state):
        if self.__dict__.get("_recurrent_dropout_mask") is None and self.recurrent_dropout > 0:
            self.__dict__["_recurrent_dropout_mask"] = self._make_masks(step_state,
                                                                        self.recurrent_dropout)
        return self.__dict__.get("_recurrent_dropout_mask")

    def reset_dropout_mask(self):
        self.__dict__["_dropout_mask"] = None

    def reset_recurrent_dropout_mask(self):
        self.__dict__["_recurrent_dropout_mask"] = None


def _rate(value):
    return min(1.0, max(0.0, float(value)))


class _Cell(DropoutRNNCell, Layer):
    """What the three cells share: arguments, weights, configs."""

    _gates = 1

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None, **kwargs):
        if int(units) <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        self.implementation = kwargs.pop("implementation", 2)
        super().__init__(**kwargs)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        set_weight_options(self, "kernel", kernel_initializer, kernel_regularizer,
                           kernel_constraint)
        set_weight_options(self, "recurrent", recurrent_initializer, recurrent_regularizer,
                           recurrent_constraint)
        set_weight_options(self, "bias", bias_initializer, bias_regularizer, bias_constraint)
        self.dropout, self.recurrent_dropout = _rate(dropout), _rate(recurrent_dropout)
        self.seed = seed
        self.state_size = self.units
        self.output_size = self.units

    def _add_kernels(self, input_dim):
        width = self._gates * self.units
        self.kernel = add_weight_with_options(self, "kernel", (input_dim, width))
        self.recurrent_kernel = add_weight_with_options(self, "recurrent_kernel",
                                                        (self.units, width), "recurrent")

    def _add_bias(self, shape, initializer=None):
        self.bias = self.add_weight("bias", shape, initializer=initializer or
                                    self.bias_initializer, regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def get_initial_state(self, batch_size=None):
        sizes = self.state_size if isinstance(self.state_size, (list, tuple)) else \
            [self.state_size]
        return [K.zeros((batch_size, d), dtype=self._dtype) for d in sizes]

    def _masks(self, inputs, h_prev, training):
        dp = self.get_dropout_mask(inputs) if training and 0 < self.dropout < 1 else None
        rdp = (self.get_recurrent_dropout_mask(h_prev)
               if training and 0 < self.recurrent_dropout < 1 else None)
        return dp, rdp

    def get_config(self):
        config = super().get_config()
        config.update(units=self.units, activation=activations.serialize(self.activation),
                      use_bias=self.use_bias,
                      **weight_options_config(self, "kernel", "recurrent", "bias"),
                      dropout=self.dropout, recurrent_dropout=self.recurrent_dropout,
                      seed=self.seed)
        return config


def _apply(x, mask, k=None):
    if mask is None:
        return x
    return x * (mask[k] if isinstance(mask, list) else mask)


def _state(states):
    return states[0] if isinstance(states, (list, tuple)) else states


class SimpleRNNCell(_Cell):
    """h = activation(x W + b + h_prev U)."""

    def build(self, input_shape):
        self._add_kernels(int(TensorShape(input_shape)[-1]))
        self._add_bias((self.units,))
        self.built = True

    def call(self, inputs, states, training=False):
        h_prev = _state(states)
        dp, rdp = self._masks(inputs, h_prev, training)
        h = K.matmul(_apply(inputs, dp), self.kernel)
        if self.bias is not None:
            h = K.bias_add(h, self.bias)
        output = self.activation(h + K.matmul(_apply(h_prev, rdp), self.recurrent_kernel))
        return output, ([output] if isinstance(states, (list, tuple)) else output)


class _GatedCell(_Cell):
    """What the LSTM and GRU steps share: the gates' `recurrent_activation`, and with recurrent
    dropout one dropout mask per gate (Keras's implementation 1)."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        if self.recurrent_dropout != 0.0:
            self.implementation = 1
        if self.implementation == 1:
            self.dropout_mask_count = self._gates

    def get_config(self):
        config = super().get_config()
        config["recurrent_activation"] = activations.serialize(self.recurrent_activation)
        return config


class LSTMCell(_GatedCell):
    """The LSTM step: states [h, c], gates i, f, c, o."""

    _gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 unit_forget_bias=True, **kwargs):
        super().__init__(units, activation=activation,
                         recurrent_activation=recurrent_activation, **kwargs)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.state_size = [self.units, self.units]

    def build(self, input_shape):
        self._add_kernels(int(TensorShape(input_shape)[-1]))
        self._add_bias((4 * self.units,), self._forget_bias_initializer()
                       if self.unit_forget_bias else None)
        self.built = True

    def _forget_bias_initializer(self):
        """The bias initializer with the forget block started at 1 (unit_forget_bias)."""
        base, units = self.bias_initializer, self.units

        def initializer(shape, dtype=None, **kwargs):
            return K.concat([base((units,), dtype=dtype), K.ones((units,), dtype=dtype),
                             base((2 * units,), dtype=dtype)], 0)
        return initializer

    def call(self, inputs, states, training=False):
        h_prev, c_prev = states[0], states[1]
        dp, rdp = self._masks(inputs, h_prev, training)
        u = self.units
        if isinstance(dp, list) or isinstance(rdp, list):
            parts = []
            for k in range(4):
                zk = K.matmul(_apply(inputs, dp, k), self.kernel[:, k * u:(k + 1) * u])
                zk = zk + K.matmul(_apply(h_prev, rdp, k), self.recurrent_kernel[:, k * u:(k + 1) * u])
                parts.append(zk)
            z = K.concat(parts, 1)
        else:
            z = K.matmul(_apply(inputs, dp), self.kernel) + K.matmul(_apply(h_prev, rdp),
                                                                    self.recurrent_kernel)
        if self.bias is not None:
            z = K.bias_add(z, self.bias)
        zi, zf, zc, zo = K.split(z, 4, axis=1)
        i, f, o = (self.recurrent_activation(t) for t in (zi, zf, zo))
        c = f * c_prev + i * self.activation(zc)
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self):
        config = super().get_config()
        config["unit_forget_bias"] = self.unit_forget_bias
        return config


class GRUCell(_GatedCell):
    """The GRU step: gates z, r, h; reset_after=True (TF 2's default) or False."""

    _gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 reset_after=True, **kwargs):
        super().__init__(units, activation=activation,
                         recurrent_activation=recurrent_activation, **kwargs)
        self.reset_after = bool(reset_after)

    def build(self, input_shape):
        self._add_kernels(int(TensorShape(input_shape)[-1]))
        self._add_bias((2, 3 * self.units) if self.reset_after else (3 * self.units,))
        self.built = True

    def _biases(self):
        if self.bias is None:
            return None, None
        if self.reset_after:
            return self.bias[0], self.bias[1]
        return self.bias, None

    def call(self, inputs, states, training=False):
        h_prev = _state(states)
        dp, rdp = self._masks(inputs, h_prev, training)
        u = self.units
        input_bias, recurrent_bias = self._biases()
        per_gate = isinstance(dp, list) or isinstance(rdp, list)
        if per_gate:
            x = K.concat([K.matmul(_apply(inputs, dp, k), self.kernel[:, k * u:(k + 1) * u])
                          for k in range(3)], 1)
        else:
            x = K.matmul(_apply(inputs, dp), self.kernel)
        if input_bias is not None:
            x = x + input_bias
        hz, hr, hh = (_apply(h_prev, rdp, k) for k in range(3))
        if self.reset_after:
            inner = (K.concat([K.matmul(h, self.recurrent_kernel[:, k * u:(k + 1) * u])
                               for k, h in enumerate((hz, hr, hh))], 1) if per_gate
                     else K.matmul(hz, self.recurrent_kernel))
            if recurrent_bias is not None:
                inner = inner + recurrent_bias
            z = self.recurrent_activation(x[:, :u] + inner[:, :u])
            r = self.recurrent_activation(x[:, u:2 * u] + inner[:, u:2 * u])
            n = self.activation(x[:, 2 * u:] + r * inner[:, 2 * u:])
        else:
            z = self.recurrent_activation(x[:, :u] + K.matmul(hz, self.recurrent_kernel[:, :u]))
            r = self.recurrent_activation(x[:, u:2 * u] + K.matmul(
                hr, self.recurrent_kernel[:, u:2 * u]))
            n = self.activation(x[:, 2 * u:] + K.matmul(r * hh, self.recurrent_kernel[:, 2 * u:]))
        h = z * h_prev + (1 - z) * n
        return h, ([h] if isinstance(states, (list, tuple)) else h)

    def get_config(self):
        config = super().get_config()
        config["reset_after"] = self.reset_after
        return config


class StackedRNNCells(Layer):
    """Several cells run one after another at each step, as one cell."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError(f"All cells must have a `call` method and a `state_size` "
                                 f"attribute. Received cell without a `state_size`: {cell}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [c.state_size for c in self.cells]

    @property
    def output_size(self):
        last = self.cells[-1]
        if getattr(last, "output_size", None) is not None:
            return last.output_size
        size = last.state_size
        return size[0] if isinstance(size, (list, tuple)) else size

    def get_initial_state(self, batch_size=None):
        out = []
        for cell in self.cells:
            fn = getattr(cell, "get_initial_state", None)
            if fn is not None:
                states = fn(batch_size=batch_size)
                out.append(states if isinstance(cell.state_size, (list, tuple)) else states[0])
            else:
                out.append(K.zeros((batch_size, cell.state_size), dtype=self._dtype))
        return out

    def build(self, input_shape):
        shape = TensorShape(input_shape)
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                cell._build_from_shape(shape)
            size = getattr(cell, "output_size", None) or nest.flatten(cell.state_size)[0]
            shape = TensorShape((shape[0], size))
        self.built = True

    def call(self, inputs, states, training=False):
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            listed = isinstance(cell_states, (list, tuple))
            cell_states = list(cell_states) if listed else [cell_states]
            inputs, cell_states = cell(inputs, cell_states, training=training)
            if len(cell_states) == 1 and not listed:
                cell_states = cell_states[0]
            new_states.append(cell_states)
        return inputs, new_states

    def get_config(self):
        config = super().get_config()
        config["cells"] = [_ser(cell) for cell in self.cells]
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cells = [deserialize_keras_object(c, custom_objects=custom_objects)
                 for c in config.pop("cells")]
        return cls(cells, **config)
