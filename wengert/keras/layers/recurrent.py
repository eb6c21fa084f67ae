"""SimpleRNN, LSTM and GRU: RNN layers over their cells (rnn_cells.py), with TF 2's defaults.

The LSTM and GRU layers hold their weights in `layer.cell` (kernel, recurrent_kernel, bias in
Keras's layout, so `get_weights()` lists are TensorFlow's). With the standard activations (tanh,
sigmoid), not unrolled and no recurrent dropout while training, they run as TensorFlow's cuDNN
path does: the inputs of all time steps are projected at once (xw = x W + b, one matmul; input
dropout applied to x first) and the recurrence is one fused op with its own back-propagation
through time (ops/nn/rnn/: LSTMSequence, GRUSequence), eagerly and in traced functions alike,
whatever tapes or accumulators record it (the fused ops have derivatives of every order).
Otherwise the cell runs step by step (rnn.py). Which path runs depends only on the layer's
configuration and `training`.
"""
from ...ops.nn import rnn as rnn_ops
from .. import activations, backend_ops as K
from .base import _standard_config
from .layer_utils import contract_trailing
from .rnn import RNN
from .rnn_cells import GRUCell, LSTMCell, SimpleRNNCell

__all__ = ["SimpleRNN", "LSTM", "GRU"]

_RNN_ARGS = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
             "zero_output_for_mask")
_BASE_ARGS = ("name", "trainable", "dtype", "input_shape", "batch_input_shape", "batch_size",
              "input_dim", "weights", "activity_regularizer", "batch_shape")


def _split_kwargs(kwargs):
    layer = {k: kwargs.pop(k) for k in list(kwargs) if k in _RNN_ARGS or k in _BASE_ARGS}
    return layer, kwargs


class _CellLayer(RNN):
    """An RNN layer that makes its own cell from the cell's arguments."""

    _cell_class = None
    _cell_name = None

    def __init__(self, units, **kwargs):
        kwargs.pop("use_cudnn", None)
        kwargs.pop("time_major", None)
        layer_kwargs, cell_kwargs = _split_kwargs(kwargs)
        cell = self._cell_class(units, name=self._cell_name, dtype=layer_kwargs.get("dtype"),
                                trainable=layer_kwargs.get("trainable", True), **cell_kwargs)
        super().__init__(cell, **layer_kwargs)

    def __getattr__(self, name):
        if name.startswith("_") or name in ("cell", "states"):
            raise AttributeError(name)
        cell = self.__dict__.get("cell")
        if cell is not None and hasattr(cell, name):
            return getattr(cell, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def get_config(self):
        config = super().get_config()
        cell = self.cell.get_config()
        for key in ("name", "trainable", "dtype"):
            cell.pop(key, None)
        config.update(cell)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = _standard_config(config)
        config.pop("implementation", None)
        return cls(**config)


class _FusedCellLayer(_CellLayer):
    """An LSTM or GRU layer: the fused op (`_run_fused`) computes it when `_fusable`, the
    cell's step by step loop otherwise."""

    def _run(self, sequences, states, mask, training):
        if not self._fusable(training):
            return self._run_cell_loop(sequences, states, mask, training)
        return self._run_fused(sequences, states, mask, training)

    def _fusable(self, training):
        """Whether the fused op computes this layer: standard activations, not unrolled, no
        recurrent dropout while training."""
        cell = self.cell
        return (cell.activation is activations.tanh
                and cell.recurrent_activation is activations.sigmoid
                and not self.unroll
                and not (training and cell.recurrent_dropout > 0))

    def _projected(self, sequences, mask, training, bias):
        """(x W + b for every step at once, time major [time, batch, k units]; the mask as
        [time, batch]), in processing order (reversed with go_backwards), input dropout first.
        The inputs are turned time major before the projection: the copy is of the narrower
        array, and the fused op then reads and writes contiguous rows at every step."""
        cell = self.cell
        x = sequences
        if training and 0 < cell.dropout < 1:
            x = x * K.expand_dims(cell._one_mask(sequences[:, 0], cell.dropout), 1)
        x = K.transpose(x, [1, 0, 2])
        if mask is not None:
            mask = K.transpose(mask, [1, 0])
        if self.go_backwards:
            x = K.reverse(x, [0])
            mask = None if mask is None else K.reverse(mask, [0])
        xw = contract_trailing(x, cell.kernel, 1)
        if bias is not None:
            xw = K.bias_add(xw, bias)
        return xw, mask

    def _outputs(self, seq, states):
        """(last output, batch-major outputs or None, states) from the time-major sequence."""
        outputs = K.transpose(seq, [1, 0, 2]) if self.return_sequences else None
        return seq[-1], outputs, states


class SimpleRNN(_CellLayer):
    """A fully connected RNN: h_t = activation(x_t W + b + h_{t-1} U)."""

    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"

    def __init__(self, units, activation="tanh", use_bias=True, **kwargs):
        super().__init__(units, activation=activation, use_bias=use_bias, **kwargs)


class LSTM(_FusedCellLayer):
    """Long Short-Term Memory (Hochreiter 1997), TensorFlow 2's LSTM layer."""

    _cell_class = LSTMCell
    _cell_name = "lstm_cell"

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 unit_forget_bias=True, **kwargs):
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, unit_forget_bias=unit_forget_bias, **kwargs)

    def _run_fused(self, sequences, states, mask, training):
        xw, mask = self._projected(sequences, mask, training, self.cell.bias)
        seq, h, c = rnn_ops.lstm_sequence(xw, states[0], states[1], self.cell.recurrent_kernel,
                                          mask, self.zero_output_for_mask)
        return self._outputs(seq, [h, c])


class GRU(_FusedCellLayer):
    """Gated Recurrent Unit (Cho et al. 2014), TensorFlow 2's GRU layer (reset_after=True)."""

    _cell_class = GRUCell
    _cell_name = "gru_cell"

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 reset_after=True, **kwargs):
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, reset_after=reset_after, **kwargs)

    def _run_fused(self, sequences, states, mask, training):
        input_bias, recurrent_bias = self.cell._biases()
        xw, mask = self._projected(sequences, mask, training, input_bias)
        seq, h = rnn_ops.gru_sequence(xw, states[0], self.cell.recurrent_kernel, recurrent_bias,
                                      mask, self.cell.reset_after, self.zero_output_for_mask)
        return self._outputs(seq, [h])
