"""TensorFlow 1's `raw_rnn`: a cell run in a while loop whose inputs, stopping and emitted values
a user's `loop_fn` decides step by step.

`loop_fn(time, cell_output, cell_state, loop_state)` returns `(finished, next_input,
next_cell_state, emit_output, next_loop_state)`. It is called first with `time = 0` and the other
three None: then `next_cell_state` is the initial state, `emit_output` (or None, meaning the
cell's `output_size`) gives the structure of what is emitted, and `next_loop_state` the initial
loop state. Each step then runs `output, state = cell(input, state)`, calls
`loop_fn(time + 1, output, state, loop_state)`, and writes its `emit_output` (the cell's output
when None) to the emitted TensorArrays at `time`; rows already finished emit zeros and keep their
state. The loop stops when every row is finished. Returns `(emit_ta, final_state,
final_loop_state)`.
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..graph.variable_scope import variable_scope
from ..control_flow.while_loop import while_loop
from ..ops.array_ops import concat
from ..ops.creation_ops import zeros
from ..ops.io.tensor_arrays import TensorArray
from ..ops.math_ops import logical_not, logical_or
from ..ops.query_ops import shape as dynamic_shape
from ..ops.reduce_ops import reduce_all
from ..ops.reshape_ops import reshape
from ..util import nest
from .dynamic_rnn import build_outside_loop, copy_through, share_outer_variables
from .rnn_cell_base import assert_like_rnncell, batch_zeros

__all__ = ["raw_rnn"]


def _batch_size(next_input):
    """The batch size of the first input (static when known)."""
    first = convert_to_tensor(nest.flatten(next_input)[0])
    if first.shape.rank is not None and first.shape.rank >= 1 and first.shape[0] is not None:
        return first.shape[0]
    return dynamic_shape(first)[0]


def _zero_emits(cell, emit_structure, batch_size, state_dtype):
    """Zeros shaped like one step's emitted values: `[batch] + size` for each size of
    `emit_structure` (tensors whose shapes are the sizes), else of the cell's `output_size`."""
    if emit_structure is None:
        return batch_zeros(batch_size, cell.output_size, state_dtype)

    def zeros_for(emit):
        emit = convert_to_tensor(emit)
        if emit.shape.is_fully_defined():
            return zeros([batch_size] + emit.shape.as_list(), emit.dtype)
        return zeros(concat([reshape(batch_size, [1]), dynamic_shape(emit)], 0), emit.dtype)
    return nest.map_structure(zeros_for, emit_structure)


def _emit_array(zero_emit):
    """A growing TensorArray of elements shaped like `zero_emit`."""
    flow = zeros(concat([[0], dynamic_shape(zero_emit)], 0), zero_emit.dtype)
    return TensorArray(zero_emit.dtype, flow=flow, dynamic_size=True,
                       element_shape=zero_emit.shape)


def _keep_when_finished(finished, old, new):
    """`old` in finished rows, `new` elsewhere; scalars and TensorArrays pass as `new`."""
    def pick(o, n):
        if isinstance(o, TensorArray) or convert_to_tensor(o).shape.rank == 0:
            return n
        return copy_through(finished, o, n)
    return nest.map_structure(pick, old, new)


def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """`(emit_ta, final_state, final_loop_state)` of `cell` driven by `loop_fn` (see the module
    docstring)."""
    assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"Argument `loop_fn` must be a callable. Received: {loop_fn}.")
    with variable_scope(scope or "rnn"):
        time = convert_to_tensor(0, dtype=dtypes.int32)
        finished, next_input, state, emit_structure, loop_state = loop_fn(time, None, None, None)
        finished = convert_to_tensor(finished, dtype=dtypes.bool)
        if state is None:
            raise ValueError("raw_rnn: loop_fn must return the initial cell state at time 0 "
                             "(its third value); got None.")
        batch_size = _batch_size(next_input)
        state_dtype = nest.flatten(state)[0].dtype
        zero_emit = _zero_emits(cell, emit_structure, batch_size, state_dtype)
        emit_arrays = tuple(_emit_array(z) for z in nest.flatten(zero_emit))
        build_outside_loop(cell, next_input, state)
        has_loop_state = loop_state is not None

        def body(time, finished, current_input, arrays, state, *loop_state):
            share_outer_variables()
            loop_state = loop_state[0] if has_loop_state else None
            output, cell_state = cell(current_input, state)
            nest.assert_same_structure(state, cell_state)
            (next_finished, next_input, next_state, emit,
             next_loop_state) = loop_fn(time + 1, output, cell_state, loop_state)
            nest.assert_same_structure(state, next_state)
            emit = output if emit is None else emit
            emit = _keep_when_finished(finished, zero_emit, emit)
            next_state = _keep_when_finished(finished, state, next_state)
            arrays = tuple(a.write(time, e) for a, e in zip(arrays, nest.flatten(emit)))
            done = logical_or(finished, next_finished)
            if next_loop_state is not None:
                loop_state = next_loop_state
            extra = (loop_state,) if has_loop_state else ()
            return (time + 1, done, next_input, arrays, next_state) + extra

        loop_vars = (time, finished, next_input, emit_arrays, state)
        loop_vars += (loop_state,) if has_loop_state else ()
        results = while_loop(lambda time, finished, *_: logical_not(reduce_all(finished)), body,
                             loop_vars, parallel_iterations=parallel_iterations or 32,
                             swap_memory=swap_memory)
        emit_ta = nest.pack_sequence_as(zero_emit, list(results[3]))
        final_loop_state = results[5] if has_loop_state else None
        return emit_ta, results[4], final_loop_state
