"""`RNN`: a recurrent cell run over the time axis of [batch, time, ...] sequences.

For t = 0..T-1 (reversed with go_backwards): (out_t, states) = cell(x_t, states), starting from
`initial_state` (or the cell's zeros, or the layer's own state variables when stateful). With a
mask (from Masking or Embedding(mask_zero=True), or passed as `mask=`), a masked step keeps the
previous states and repeats the previous output (zeros with zero_output_for_mask):
    states_t = m_t new + (1 - m_t) states_{t-1},   out_t = m_t out + (1 - m_t) out_{t-1}
(out_{-1} = 0). The layer returns out_{T-1}, or the whole sequence [batch, time, units]
(return_sequences; in processing order, so reversed with go_backwards, as Keras), then the
final states (return_state). A stateful layer keeps the final states in non-trainable
variables for the next call; `reset_states()` zeroes them.

How the loop runs: eagerly (and with unroll=True) a Python loop of the cell's ops, so a tape
records every step and gradients are exact to any order. In a graph or traced function it is
one `while_loop` whose kept per-iteration values are the outputs (what TensorFlow writes to a
TensorArray), differentiable backwards through time. LSTM and GRU with the standard activations
run the whole loop as one fused op instead (recurrent.py, ops/nn/rnn/).
"""
from ...control_flow.while_loop import while_loop_history
from ...framework.context import state as context_state
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.variables import Variable
from ...util import nest
from .. import backend_ops as K
from ..serialization import serialize_keras_object as _ser
from .base import Layer
from .keras_tensor import is_shape_list
from .layer_utils import config_with_objects
from .rnn_cells import DropoutRNNCell, StackedRNNCells

__all__ = ["RNN", "rnn_loop"]


def _time_major(x):
    rank = x.shape.rank
    return K.transpose(x, [1, 0] + list(range(2, rank)))


def _select(mask, new, old):
    """new where the step's mask [batch] is on, old elsewhere (the mask broadcast over the
    other axes of new, whatever its rank)."""
    keep = K.reshape(mask, [-1] + [1] * (new.shape.rank - 1))
    return K.where(keep, new, old)


def rnn_loop(step, sequences, initial_states, mask=None, go_backwards=False, unroll=False,
             zero_output_for_mask=False):
    """Run `step(x_t, states) -> (output, states)` over axis 1 of `sequences`.

    Returns (last output, outputs [batch, time, ...], final states as a flat list)."""
    xs = _time_major(sequences)
    masks = None
    if mask is not None:
        masks = K.transpose(K.cast(mask, "bool"), [1, 0])
    if go_backwards:
        xs = K.reverse(xs, [0])
        masks = None if masks is None else K.reverse(masks, [0])
    steps = xs.shape[0]
    if context_state.graph is None or unroll:
        if steps is None:
            raise ValueError("Cannot unroll a RNN if the time dimension is undefined.")
        return _python_loop(step, xs, masks, initial_states, steps, zero_output_for_mask)
    return _while_loop(step, xs, masks, initial_states, zero_output_for_mask)


def _python_loop(step, xs, masks, states, steps, zero_output):
    outputs, previous = [], None
    for t in range(steps):
        output, new = step(xs[t], states)
        new = nest.flatten(new)
        if masks is not None:
            keep = masks[t]
            if previous is None or zero_output:
                previous = K.zeros_like(output)
            output = _select(keep, output, previous)
            new = [_select(keep, n, s) for n, s in zip(new, states)]
        outputs.append(output)
        previous, states = output, new
    if not outputs:
        raise ValueError("An RNN needs at least one time step; got a sequence of length 0.")
    return outputs[-1], K.stack(outputs, axis=1), states


def _while_loop(step, xs, masks, states, zero_output):
    probe, _ = step(xs[0], states)
    zero = K.zeros_like(probe)
    count = K.shape(xs)[0]

    def body(t, out_prev, *carried):
        output, new = step(K.gather(xs, t), list(carried))
        new = nest.flatten(new)
        if masks is not None:
            keep = K.gather(masks, t)
            output = _select(keep, output, zero if zero_output else out_prev)
            new = [_select(keep, n, s) for n, s in zip(new, carried)]
        return [t + 1, output] + new

    start = convert_to_tensor(0)
    finals, stacks = while_loop_history(lambda t, *rest: K.less(t, count), body,
                                        [start, zero] + list(states))
    last = finals[1]
    outputs = K.concat([stacks[1][1:], K.expand_dims(last, 0)], 0)
    return last, _time_major(outputs), list(finals[2:])


class RNN(Layer):
    """Runs `cell` (or a list of cells, stacked) over the time axis of its input."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call"):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: "
                             f"cell={cell}")
        if not hasattr(cell, "state_size"):
            raise ValueError("The RNN cell should have a `state_size` attribute (single integer "
                             f"or list of integers, one integer per RNN state). Received: "
                             f"cell={cell}")
        kwargs.pop("time_major", None)
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful = bool(go_backwards), bool(stateful)
        self.unroll, self.zero_output_for_mask = bool(unroll), bool(zero_output_for_mask)
        self.supports_masking = True
        self.states = None
        size = cell.state_size
        self.state_size = [size] if isinstance(size, int) else list(size)
        self.single_state = isinstance(size, int)

    # -- shapes -----------------------------------------------------------------------------
    def _sequence_shape(self, input_shape):
        return TensorShape(input_shape[0] if is_shape_list(input_shape) else input_shape)

    def _output_size(self):
        size = getattr(self.cell, "output_size", None)
        return size if size is not None else nest.flatten(self.state_size[0])[0]

    def compute_output_shape(self, input_shape):
        shape = self._sequence_shape(input_shape)
        batch, steps = shape[0], shape[1]
        out = (TensorShape((batch, steps, self._output_size())) if self.return_sequences
               else TensorShape((batch, self._output_size())))
        if not self.return_state:
            return out
        states = [TensorShape((batch, d)) for d in nest.flatten(self.state_size)]
        if isinstance(self.cell, StackedRNNCells):
            states = list(nest.pack_sequence_as(self.cell.state_size, states))
        return [out] + states

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(nest.flatten(self.state_size))
        return output_mask

    def build(self, input_shape):
        shape = self._sequence_shape(input_shape)
        if shape.rank is not None and shape.rank < 3:
            raise ValueError(f"Input 0 of layer {self.name!r} is incompatible with the layer: "
                             f"expected ndim=3 (batch, time, features), found ndim={shape.rank}."
                             f" Full shape received: {tuple(shape)}")
        step_shape = TensorShape((shape[0],) + tuple(shape)[2:])
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell._build_from_shape(step_shape)
        if self.stateful:
            self._make_state_variables(shape[0])
        self.built = True

    # -- states -----------------------------------------------------------------------------
    def _make_state_variables(self, batch):
        if batch is None:
            raise ValueError("When using `stateful=True` in a RNN, the batch size must be "
                             "static. Found dynamic batch size: sequence.shape=(None, ...)")
        zeros = self.get_initial_state(batch)
        self.states = [Variable(z, trainable=False, name=f"{self.name}/rnn_state")
                       for z in nest.flatten(zeros)]

    def get_initial_state(self, batch_size):
        fn = getattr(self.cell, "get_initial_state", None)
        if fn is not None:
            states = fn(batch_size=batch_size)
            return list(states) if isinstance(states, (list, tuple)) else [states]
        return [K.zeros((batch_size, d), dtype=self._dtype) for d in nest.flatten(
            self.state_size)]

    def reset_states(self, states=None):
        """Zero the stored states of a stateful layer (or set them to `states`)."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if self.states is None:
            return
        values = [None] * len(self.states) if states is None else nest.flatten(states)
        for variable, value in zip(self.states, values):
            variable.assign(K.zeros_like(variable) if value is None else value)

    reset_state = reset_states

    def _initial_states(self, sequences, initial_state):
        if initial_state is not None:
            states = nest.flatten(initial_state)
        elif self.stateful:
            states = [v.read_value() for v in self.states]
        else:
            batch = sequences.shape[0]
            if batch is None:
                batch = K.shape(sequences)[0]
            states = nest.flatten(self.get_initial_state(batch))
        return [K.cast(convert_to_tensor(s), self._dtype) for s in states]

    # -- running ----------------------------------------------------------------------------
    def _split_inputs(self, inputs, initial_state):
        if isinstance(inputs, (list, tuple)):
            if initial_state is None and len(inputs) > 1:
                initial_state = list(inputs[1:])
            inputs = inputs[0]
        return inputs, initial_state

    def call(self, inputs, mask=None, training=None, initial_state=None):
        sequences, initial_state = self._split_inputs(inputs, initial_state)
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        if self.unroll and sequences.shape[1] is None:
            raise ValueError("Cannot unroll a RNN if the time dimension is undefined.")
        states = self._initial_states(sequences, initial_state)
        if self.stateful and self.states is not None and sequences.shape[0] is not None and \
                sequences.shape[0] != self.states[0].shape[0]:
            raise ValueError(f"If an RNN is stateful, the batch size of the input sequences "
                             f"must be the same as the batch size of the initial state. "
                             f"Expected batch size: {self.states[0].shape[0]}; received batch "
                             f"size: {sequences.shape[0]}")
        last, outputs, final = self._run(sequences, states, mask, training)
        if self.stateful:
            for variable, value in zip(self.states, final):
                variable.assign(value)
        output = outputs if self.return_sequences else last
        if self.return_state:  # one entry per cell of a stack: [h, c] for an LSTM cell
            if isinstance(self.cell, StackedRNNCells):
                return [output] + list(nest.pack_sequence_as(self.cell.state_size, final))
            return [output] + list(final)
        return output

    def _run(self, sequences, states, mask, training):
        """(last output, outputs, final flat states); LSTM and GRU override it."""
        return self._run_cell_loop(sequences, states, mask, training)

    def _run_cell_loop(self, sequences, states, mask, training):
        cell = self.cell
        self._prepare_dropout(cell, sequences, states, training)
        nested = cell.state_size

        def step(x_t, flat_states):
            packed = nest.pack_sequence_as(nested, list(flat_states)) if isinstance(
                nested, (list, tuple)) else flat_states[0]
            if not isinstance(nested, (list, tuple)):
                packed = [packed]
            output, new = cell(x_t, packed, training=training)
            return output, nest.flatten(new)

        try:
            return rnn_loop(step, sequences, states, mask, self.go_backwards, self.unroll,
                            self.zero_output_for_mask)
        finally:
            self._reset_dropout(cell)

    def _prepare_dropout(self, cell, sequences, states, training):
        if not training:
            return
        cells = cell.cells if isinstance(cell, StackedRNNCells) else [cell]
        for c in cells:
            if isinstance(c, DropoutRNNCell):
                c.reset_dropout_mask()
                c.reset_recurrent_dropout_mask()

    def _reset_dropout(self, cell):
        cells = cell.cells if isinstance(cell, StackedRNNCells) else [cell]
        for c in cells:
            if isinstance(c, DropoutRNNCell):
                c.reset_dropout_mask()
                c.reset_recurrent_dropout_mask()

    # -- config -----------------------------------------------------------------------------
    def get_config(self):
        config = super().get_config()
        config.update(return_sequences=self.return_sequences, return_state=self.return_state,
                      go_backwards=self.go_backwards, stateful=self.stateful,
                      unroll=self.unroll, zero_output_for_mask=self.zero_output_for_mask)
        if type(self) is RNN:
            config["cell"] = _ser(self.cell)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = config_with_objects(config, custom_objects, "cell")
        return cls(config.pop("cell"), **config)
