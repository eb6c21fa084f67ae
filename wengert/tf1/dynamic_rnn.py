"""TensorFlow 1's `dynamic_rnn` and `bidirectional_dynamic_rnn`: a cell run over the time axis of
its inputs in one while loop.

`dynamic_rnn(cell, inputs)` takes inputs `[batch, time, depth]` (or `[time, batch, depth]` with
`time_major=True`; a nested structure of such tensors is read step by step as one structure),
starts from `initial_state` or the cell's zero state of `dtype`, and at each step t computes
`output_t, state = cell(inputs_t, state)`. It returns every step's output, stacked along the time
axis, and the last state. With `sequence_length` (one length per batch row), a row's steps
t >= length produce zero outputs and leave its state unchanged, so the returned state is each
row's state at its own last step. The cell's variables are made under the variable scope
`scope` (default "rnn"). `bidirectional_dynamic_rnn` runs `cell_fw` forward under
`bidirectional_rnn/fw` and `cell_bw` under `bidirectional_rnn/bw` over the inputs reversed
within each row's length, and reverses its outputs back.
"""
from ..framework import dtypes
from ..framework.context import state as state_now
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..graph.variable_scope import variable_scope
from ..graph.variable_store import variable_store
from ..control_flow.while_loop import while_loop
from ..ops.array_ops import concat, identity, where
from ..ops.cast_ops import cast
from ..ops.indexing_ops import gather, reverse
from ..ops.io.tensor_arrays import TensorArray
from ..ops.manip_ops import reverse_sequence
from ..ops.math_ops import greater_equal, less
from ..ops.query_ops import shape as dynamic_shape
from ..ops.creation_ops import zeros
from ..ops.reshape_ops import reshape, transpose
from ..util import nest
from .fused_rnn import fused_dynamic_rnn
from .rnn_cell_base import assert_like_rnncell, batch_zeros

__all__ = ["dynamic_rnn", "bidirectional_dynamic_rnn"]


def transpose_batch_time(x):
    """`x` with its first two axes swapped (unchanged below rank 2)."""
    rank = x.shape.rank
    if rank is not None and rank < 2:
        return x
    if rank is None:
        raise ValueError(f"dynamic_rnn: the inputs {x} need a known rank (at least 3).")
    return transpose(x, [1, 0] + list(range(2, rank)))


def input_batch_size(flat_input):
    """The batch size (axis 1 of time-major inputs): an int when static, else a tensor."""
    for x in flat_input:
        rank = x.shape.rank
        if rank is None:
            continue
        if rank < 2:
            raise ValueError(f"Input tensor should have rank >= 2. Received input={x} of "
                             f"rank {rank}")
        if x.shape[1] is not None:
            return x.shape[1]
    return dynamic_shape(flat_input[0])[1]


def state_dtype(explicit_dtype, state):
    """`explicit_dtype`, else the one dtype of every tensor of `state`."""
    if explicit_dtype is not None:
        return dtypes.as_dtype(explicit_dtype)
    found = [t.dtype for t in nest.flatten(state)]
    if not found:
        raise ValueError(f"Unable to infer dtype from argument state={state}.")
    if any(d != found[0] for d in found):
        raise ValueError(f"Argument state={state} has tensors of different inferred dtypes. "
                         "Unable to infer a single representative dtype. Dtypes received: "
                         f"{found}")
    return found[0]


def checked_sequence_length(sequence_length):
    """`sequence_length` as an int32 vector; ValueError when it is not a vector."""
    if sequence_length is None:
        return None
    sequence_length = cast(sequence_length, dtypes.int32)
    if sequence_length.shape.rank not in (None, 1):
        raise ValueError("Argument sequence_length must be a vector of length batch_size. "
                         f"Received sequence_length={sequence_length} of shape: "
                         f"{sequence_length.shape}")
    return identity(sequence_length, name="sequence_length")


def start_state(cell, initial_state, batch_size, dtype):
    """`initial_state`, else the cell's zero state; ValueError when neither it nor dtype is given."""
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If no initial_state is provided, argument `dtype` must be specified")
    if getattr(cell, "get_initial_state", None) is not None:
        return cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
    return cell.zero_state(batch_size, dtype)


def copy_through(past_end, old, new):
    """`old` in the rows where `past_end` (a [batch] bool vector) holds, else `new`."""
    def pick(o, n):
        rank = n.shape.rank
        cond = past_end if rank in (None, 1) else reshape(past_end, [-1] + [1] * (rank - 1))
        return where(cond, o, n)
    return nest.map_structure(pick, old, new)


def _check_time_major(flat_input):
    """Every time-major input has rank >= 3, a known depth and the same time and batch sizes."""
    for x in flat_input:
        if x.shape.rank is not None and x.shape.rank < 3:
            raise ValueError(f"Shape {TensorShape(x.shape)} must have rank at least 3")
        if x.shape.rank is not None and any(d is None for d in x.shape[2:]):
            raise ValueError("Input size (depth of inputs) must be accessible via shape "
                             f"inference, but saw value None for input={x}.")
    first = flat_input[0].shape
    for x in flat_input[1:]:
        if x.shape[0] != first[0]:
            raise ValueError("Time steps is not the same for all the elements in the input in "
                             f"a batch. Received time steps={x.shape[0]} for input={x}.")
        if x.shape[1] != first[1]:
            raise ValueError("Batch_size is not the same for all the elements in the input. "
                             f"Received batch size={x.shape[1]} for input={x}.")


def build_outside_loop(cell, step_input, state):
    """In a graph, call the cell once on the first step's input before the loop, so that its
    variables are made (and named) in the graph being built rather than in the loop's body; the
    step's ops are never run unless fetched."""
    if state_now.graph is not None:
        cell(step_input, state)


def share_outer_variables():
    """Inside a loop's body, let `get_variable` find the variables already made in the graph
    around it (a cell whose `call` asks for its variables by name, as TensorFlow 1 allows)."""
    graph = state_now.graph
    outer = getattr(graph, "outer", None)
    if graph is not None and outer is not None:
        variable_store(graph).variables.update(variable_store(outer).variables)


def _rnn_loop(cell, inputs, state, sequence_length, dtype, parallel_iterations, swap_memory):
    """(outputs stacked time-major, final state) of the cell over time-major `inputs`."""
    flat_input = nest.flatten(inputs)
    _check_time_major(flat_input)
    fused = fused_dynamic_rnn(cell, inputs, state, sequence_length)
    if fused is not None:
        return fused
    batch_size = input_batch_size(flat_input)
    steps = flat_input[0].shape[0]
    steps = steps if steps is not None else dynamic_shape(flat_input[0])[0]
    out_dtype = state_dtype(dtype, state)
    zero_output = batch_zeros(batch_size, cell.output_size, out_dtype)
    output_arrays = tuple(_output_array(z, steps) for z in nest.flatten(zero_output))

    build_outside_loop(cell, nest.map_structure(lambda x: x[0], inputs), state)

    def body(time, arrays, state):
        share_outer_variables()
        step_input = nest.pack_sequence_as(inputs, [gather(x, time) for x in flat_input])
        output, new_state = cell(step_input, state)
        nest.assert_same_structure(state, new_state)
        if sequence_length is not None:
            past_end = greater_equal(time, sequence_length)
            output = copy_through(past_end, zero_output, output)
            new_state = copy_through(past_end, state, new_state)
        arrays = tuple(a.write(time, o) for a, o in zip(arrays, nest.flatten(output)))
        return time + 1, arrays, new_state

    _, arrays, final_state = while_loop(
        lambda time, *_: less(time, steps), body,
        (convert_to_tensor(0, dtype=dtypes.int32), output_arrays, state),
        parallel_iterations=parallel_iterations or 32, swap_memory=swap_memory,
        maximum_iterations=steps)
    outputs = nest.pack_sequence_as(cell.output_size, [_stacked(a, steps) for a in arrays])
    return outputs, final_state


def _output_array(zero_output, steps):
    """A TensorArray of `steps` elements shaped like `zero_output` (whose batch size may be
    known only when the graph runs)."""
    if zero_output.shape.is_fully_defined():
        return TensorArray(zero_output.dtype, size=steps, element_shape=zero_output.shape)
    flow = zeros(concat([reshape(steps, [1]), dynamic_shape(zero_output)], 0), zero_output.dtype)
    return TensorArray(zero_output.dtype, flow=flow, element_shape=zero_output.shape)


def _stacked(array, steps):
    """The array's elements stacked on a new axis 0, of static length `steps` when known."""
    stacked = array.stack()
    if isinstance(steps, int) and hasattr(stacked, "set_shape"):
        stacked.set_shape(TensorShape([steps]).concatenate(stacked.shape[1:]))
    return stacked


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                parallel_iterations=None, swap_memory=False, time_major=False, scope=None):
    """`(outputs, state)` of `cell` run over the time axis of `inputs` (see the module
    docstring). outputs: `[batch, time, output_size]` (time first when `time_major`)."""
    assert_like_rnncell("cell", cell)
    with variable_scope(scope or "rnn"):
        flat_input = [convert_to_tensor(x) for x in nest.flatten(inputs)]
        if not time_major:
            flat_input = [transpose_batch_time(x) for x in flat_input]
        sequence_length = checked_sequence_length(sequence_length)
        batch_size = input_batch_size(flat_input)
        state = start_state(cell, initial_state, batch_size, dtype)
        inputs = nest.pack_sequence_as(inputs, flat_input)
        outputs, final_state = _rnn_loop(cell, inputs, state, sequence_length, dtype,
                                         parallel_iterations, swap_memory)
        if not time_major:
            outputs = nest.map_structure(transpose_batch_time, outputs)
        return outputs, final_state


def _reverse_time(x, lengths, time_axis, batch_axis):
    """`x` reversed along time, within each row's length when `lengths` is given."""
    if lengths is None:
        return reverse(x, axis=[time_axis])
    return reverse_sequence(x, seq_lengths=lengths, seq_axis=time_axis, batch_axis=batch_axis)


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None,
                              initial_state_fw=None, initial_state_bw=None, dtype=None,
                              parallel_iterations=None, swap_memory=False, time_major=False,
                              scope=None):
    """`((output_fw, output_bw), (state_fw, state_bw))`: `cell_fw` over the inputs and `cell_bw`
    over them reversed in time (within `sequence_length`), its outputs reversed back."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(
                cell_fw, inputs, sequence_length=sequence_length,
                initial_state=initial_state_fw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            lengths = None if sequence_length is None else cast(sequence_length, dtypes.int64)

            def flip(x):
                return _reverse_time(convert_to_tensor(x), lengths, time_axis, batch_axis)
            reversed_output, state_bw = dynamic_rnn(
                cell_bw, nest.map_structure(flip, inputs), sequence_length=sequence_length,
                initial_state=initial_state_bw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=bw_scope)
    output_bw = nest.map_structure(flip, reversed_output)
    return (output_fw, output_bw), (state_fw, state_bw)
