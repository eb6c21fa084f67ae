"""`dynamic_rnn` over the cells whose whole time loop one fused sequence op computes: the LSTM and
GRU sequence ops of wengert/ops/nn/rnn (those Keras's LSTM and GRU layers run) instead of the cell
called step by step in a while loop. The results and gradients are the loop's, up to rounding.

The fused ops take Keras's layout: every step's input projection at once, `xw = x W + b`
([time, batch, k units]), a recurrent kernel U [units, k units] and the gates in Keras's order.
A TensorFlow 1 cell keeps one kernel over `concat([x, h])`, so W is its first `depth` rows and U
the rest, with the columns reordered:
- BasicLSTMCell, and LSTMCell without peepholes, clipping or projection: gates i, j, f, o become
  Keras's i, f, c, o (c = j); `forget_bias` is added to the forget gate's bias, since
  `sigmoid(z_f + forget_bias)` is the gate TensorFlow 1 computes.
- GRUCell: `gates/kernel` holds r, u and `candidate/kernel` the candidate; Keras's z, r, h are
  u, r, candidate, with the reset applied before the recurrent product (reset_after=False):
  `tanh(x W_h + b_h + (r h) U_h)` is TensorFlow 1's candidate `tanh(concat([x, r h]) K_c + b_c)`.
Only the default tanh activation fits (the ops fix tanh and sigmoid). `sequence_length` becomes
the mask `t < length` with zero outputs past it (the ops keep the state where a step is masked),
which is TensorFlow 1's copy-through. A MultiRNNCell (tuple states) of such cells runs layer by
layer, one fused op each. Any other cell, nested inputs, or states of another dtype run the while
loop.
"""
import numbers

import numpy as np

from ..framework.tensor import convert_to_tensor
from ..ops.array_ops import concat, split
from ..ops.indexing_ops import reverse
from ..ops.creation_ops import range as arange
from ..ops.math_ops import less
from ..ops.matmul_ops import matmul
from ..ops.nn.rnn import gru_sequence, lstm_sequence
from ..ops.query_ops import shape as dynamic_shape
from ..ops.reshape_ops import expand_dims, reshape, transpose
from ..ops.unary_ops import tanh
from ..graph.variable_scope import variable_scope
from ..util import nest
from .rnn_cell_base import LSTMStateTuple
from .rnn_cell_wrappers import MultiRNNCell
from .rnn_cells import BasicLSTMCell, GRUCell, LSTMCell

__all__ = ["fusable", "fused_dynamic_rnn"]


def _same_layer(cell, cls):
    """`cell` computes `cls`'s step: an instance whose step and variables are `cls`'s."""
    kind = type(cell)
    return isinstance(cell, cls) and kind.call is cls.call and kind.build is cls.build


def _same_math(cell, cls):
    return _same_layer(cell, cls) and cell._activation is tanh


def _lstm_fits(cell):
    if not isinstance(getattr(cell, "_forget_bias", None), numbers.Real):
        return False
    if _same_math(cell, BasicLSTMCell):
        return True
    return (_same_math(cell, LSTMCell) and not cell._use_peepholes and cell._cell_clip is None
            and cell._num_proj is None)


def _fused_kind(cell):
    """"lstm", "gru", or None for a cell the fused ops do not compute."""
    if _lstm_fits(cell):
        return "lstm"
    if _same_math(cell, GRUCell):
        return "gru"
    return None


def _fits(inputs, state):
    """One time-major float tensor of known depth, and a state of its dtype."""
    if nest.is_nested(inputs):
        return False
    dtype = inputs.dtype
    shape = inputs.shape
    return (dtype.is_floating and shape.rank == 3 and shape[2] is not None
            and all(convert_to_tensor(s).dtype == dtype for s in nest.flatten(state)))


def _lstm_gate_order(matrix, units):
    """The columns i, j, f, o of `matrix` (`[..., 4 units]`) as i, f, j, o: viewed as
    `[..., 2, 2, units]` (blocks (i, j), (f, o)) and transposed in the two middle axes, one
    transpose whose gradient is a transpose."""
    lead = list(matrix.shape[:-1])
    rank = len(lead)
    blocks = transpose(reshape(matrix, lead + [2, 2, units]),
                       list(range(rank)) + [rank + 1, rank, rank + 2])
    return reshape(blocks, lead + [4 * units])


def _gru_gate_order(matrix, units):
    """The column blocks r, u of `matrix` (`[..., 2 units]`) as u, r."""
    lead = list(matrix.shape[:-1])
    return reshape(reverse(reshape(matrix, lead + [2, units]), [len(lead)]), lead + [2 * units])


def _rows(matrix, depth):
    """(the first `depth` rows of `matrix`, the rest)."""
    return split(matrix, [depth, matrix.shape[0] - depth], axis=0)


def _projected(x, kernel_x, bias):
    """`x W + b` for every step of the time-major `x` at once: [time, batch, columns]."""
    depth, columns = kernel_x.shape
    flat = matmul(reshape(x, [-1, depth]), kernel_x) + bias
    lead = list(x.shape[:2])
    target = lead + [columns] if None not in lead else concat(
        [dynamic_shape(x)[:2], [columns]], 0)
    return reshape(flat, target)


def _time_mask(sequence_length, x):
    """[time, batch] booleans `t < length`, or None without lengths."""
    if sequence_length is None:
        return None
    steps = x.shape[0] if x.shape[0] is not None else dynamic_shape(x)[0]
    return less(expand_dims(arange(steps), 1), expand_dims(sequence_length, 0))


def _lstm(cell, x, state, mask):
    units = cell._num_units
    if cell._state_is_tuple:
        c, h = state
    else:
        state = convert_to_tensor(state)
        c, h = state[:, :units], state[:, units:]
    kernel = _lstm_gate_order(convert_to_tensor(cell._kernel), units)
    forget = np.zeros([4 * units], x.dtype.as_numpy_dtype)
    forget[units:2 * units] = cell._forget_bias
    bias = _lstm_gate_order(convert_to_tensor(cell._bias), units) + forget
    kernel_x, recurrent = _rows(kernel, x.shape[2])
    outputs, new_h, new_c = lstm_sequence(_projected(x, kernel_x, bias), h, c, recurrent, mask,
                                          zero_output_for_mask=True)
    if cell._state_is_tuple:
        return outputs, LSTMStateTuple(new_c, new_h)
    return outputs, concat([new_c, new_h], 1)


def _gru(cell, x, state, mask):
    units = cell._num_units
    gates = _gru_gate_order(convert_to_tensor(cell._gate_kernel), units)
    kernel = concat([gates, convert_to_tensor(cell._candidate_kernel)], 1)
    bias = concat([_gru_gate_order(convert_to_tensor(cell._gate_bias), units),
                   convert_to_tensor(cell._candidate_bias)], 0)
    kernel_x, recurrent = _rows(kernel, x.shape[2])
    outputs, new_h = gru_sequence(_projected(x, kernel_x, bias), state, recurrent, None, mask,
                                  reset_after=False,
                                  zero_output_for_mask=True)
    return outputs, new_h


_RUNS = {"lstm": _lstm, "gru": _gru}


def _fused_cells(cell, dtype):
    """The cells a fused run computes one after the other: [cell] for a cell the fused ops
    compute, a MultiRNNCell's cells when each is one, else None; each of `dtype` or none yet."""
    if _same_layer(cell, MultiRNNCell) and cell._state_is_tuple:
        cells = list(cell._cells)
    else:
        cells = [cell]
    if all(_fused_kind(c) is not None and c.dtype in (None, dtype) for c in cells):
        return cells
    return None


def fusable(cell, dtype):
    """Whether `cell` has a fused form (see the module docstring) for inputs of `dtype`."""
    return dtype.is_floating and _fused_cells(cell, dtype) is not None


def _run_cell(cell, x, state, mask):
    """(outputs, final state) of one cell over the time-major `x`, in the cell's scope."""
    with cell._built_scope(x, sequence=True) as x:
        return _RUNS[_fused_kind(cell)](cell, x, state, mask)


def _run_stack(cell, x, state, mask):
    """A MultiRNNCell run layer by layer, each under `cell_<k>` as its step does: past a row's
    length every layer keeps its state, and the top layer's outputs are zero there, which is
    what the step-by-step loop returns."""
    with cell._built_scope(x, sequence=True) as x:
        states = []
        for k, layer in enumerate(cell._cells):
            with variable_scope(f"cell_{k}"):
                x, layer_state = _run_cell(layer, x, state[k], mask)
            states.append(layer_state)
        return x, tuple(states)


def fused_dynamic_rnn(cell, inputs, state, sequence_length):
    """(outputs [time, batch, units], final state) of `cell` over the time-major `inputs` by
    fused sequence ops, with TensorFlow 1's masking past `sequence_length` (int32 [batch]); None
    when the cell, inputs or state have no fused form (see the module docstring)."""
    if not _fits(inputs, state) or _fused_cells(cell, inputs.dtype) is None:
        return None
    mask = _time_mask(sequence_length, inputs)
    run = _run_cell if _fused_kind(cell) is not None else _run_stack
    outputs, new_state = run(cell, inputs, state, mask)
    nest.assert_same_structure(state, new_state)
    return outputs, new_state
