"""TensorFlow 1's `static_rnn` and `static_bidirectional_rnn`: a cell unrolled over a Python list
of time steps.

`static_rnn(cell, inputs)` takes a list of `[batch, depth]` tensors (one per step), starts from
`initial_state` or the cell's zero state of `dtype` and returns the list of outputs and the last
state; every step shares the cell's variables (scope "rnn"). With `sequence_length` a row's steps
past its length give zero outputs and keep its state. The cells the fused sequence ops compute
(fused_rnn.py) run over the steps stacked in time, as dynamic_rnn runs them. `static_bidirectional_rnn` runs `cell_fw`
over the steps and `cell_bw` over them reversed (within each row's length), and returns each
step's forward and backward outputs concatenated on the last axis, with both final states.
`static_state_saving_rnn` is `static_rnn` starting from `state_saver.state(name)` for each part
of the state, whose last output and state are computed only after `state_saver.save_state(name,
value)` has saved each part of the final state.
"""
from ..framework.tensor import convert_to_tensor
from ..graph.graph import control_dependencies
from ..graph.variable_scope import variable_scope
from ..ops.array_ops import concat, identity, stack, unstack
from ..ops.manip_ops import reverse_sequence
from ..ops.math_ops import greater_equal
from ..ops.query_ops import shape as dynamic_shape
from ..util import nest
from .dynamic_rnn import checked_sequence_length, copy_through, start_state, state_dtype
from .fused_rnn import fusable, fused_dynamic_rnn
from .rnn_cell_base import assert_like_rnncell, batch_zeros

__all__ = ["static_rnn", "static_bidirectional_rnn", "static_state_saving_rnn"]


def _check_steps(inputs):
    """TypeError unless `inputs` is a non-empty sequence of steps."""
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")


def _batch_size(first_input):
    """The batch size of one step's inputs (static when known); ValueError for rank < 2 or an
    unknown depth."""
    for x in nest.flatten(first_input):
        if x.shape.rank is not None and x.shape.rank < 2:
            raise ValueError(f"Expected inputs of rank at least 2 in static_rnn, saw shape "
                             f"{x.shape} for {x}.")
        if x.shape.rank is not None and any(d is None for d in x.shape[1:]):
            raise ValueError("Input size (dimension 1 of inputs) must be accessible via shape "
                             f"inference, but saw value None for {x}.")
    for x in nest.flatten(first_input):
        if x.shape.rank is not None and x.shape[0] is not None:
            return x.shape[0]
    return dynamic_shape(nest.flatten(first_input)[0])[0]


def _fused_steps(cell, inputs, state, sequence_length):
    """(outputs, state) of a cell the fused sequence ops compute (fused_rnn.py), over the steps
    stacked on a time axis; None for other cells and for nested steps."""
    first = inputs[0]
    if nest.is_nested(first) or first.shape.rank != 2 or not fusable(cell, first.dtype):
        return None
    fused = fused_dynamic_rnn(cell, stack(inputs), state, sequence_length)
    return None if fused is None else (unstack(fused[0], len(inputs)), fused[1])


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """`(outputs, state)`: the cell over the list `inputs`, one output per step."""
    assert_like_rnncell("cell", cell)
    _check_steps(inputs)
    outputs = []
    with variable_scope(scope or "rnn") as varscope:
        inputs = [nest.map_structure(convert_to_tensor, x) for x in inputs]
        batch_size = _batch_size(inputs[0])
        state = start_state(cell, initial_state, batch_size, dtype)
        sequence_length = checked_sequence_length(sequence_length)
        fused = _fused_steps(cell, inputs, state, sequence_length)
        if fused is not None:
            return fused
        zero_output = None
        if sequence_length is not None:
            zero_output = batch_zeros(batch_size, cell.output_size, state_dtype(dtype, state))
        for time, step in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()
            output, new_state = cell(step, state)
            if sequence_length is not None:
                past_end = greater_equal(time, sequence_length)
                output = copy_through(past_end, zero_output, output)
                new_state = copy_through(past_end, state, new_state)
            state = new_state
            outputs.append(output)
    return outputs, state


def _reverse_steps(steps, lengths):
    """The list of steps reversed, within each row's length when `lengths` is given."""
    if lengths is None:
        return list(reversed(steps))
    flat_steps = [nest.flatten(s) for s in steps]
    reversed_leaves = []
    for leaves in zip(*flat_steps):
        stacked = stack(list(leaves))
        reversed_leaves.append(unstack(reverse_sequence(stacked, lengths, seq_axis=0,
                                                        batch_axis=1)))
    return [nest.pack_sequence_as(steps[0], [leaf[t] for leaf in reversed_leaves])
            for t in range(len(steps))]


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                             initial_state_bw=None, dtype=None, sequence_length=None,
                             scope=None):
    """`(outputs, state_fw, state_bw)`: each output is the step's forward and backward outputs
    concatenated on axis 1."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    _check_steps(inputs)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                             sequence_length, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            lengths = None
            if sequence_length is not None:
                lengths = checked_sequence_length(sequence_length)
            reversed_inputs = _reverse_steps(list(inputs), lengths)
            reversed_output, state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw,
                                                   dtype, sequence_length, scope=bw_scope)
    output_bw = _reverse_steps(reversed_output, lengths)
    outputs = [nest.pack_sequence_as(fw, [concat([a, b], 1) for a, b in
                                          zip(nest.flatten(fw), nest.flatten(bw))])
               for fw, bw in zip(output_fw, output_bw)]
    return outputs, state_fw, state_bw


def _state_names(state_name, state_size):
    """The flat state names, one per part of the state; ValueError when they do not match."""
    if nest.is_nested(state_size) != nest.is_nested(state_name):
        raise ValueError("Argument `state_name` should be the same type as `cell.state_size`. "
                         f"Received: state_name={state_name!s}, cell.state_size="
                         f"{state_size!s}.")
    names, sizes = nest.flatten(state_name), nest.flatten(state_size)
    if len(names) != len(sizes):
        raise ValueError("Number of elements in argument `state_name` and `cell.state_size` "
                         f"are mismatched. Received state_name={state_name} with "
                         f"{len(names)} elements and cell.state_size={state_size} with "
                         f"{len(sizes)} elements.")
    return names


def static_state_saving_rnn(cell, inputs, state_saver, state_name, sequence_length=None,
                            scope=None):
    """`(outputs, state)` of `static_rnn` from the state `state_saver` holds, saving the final
    state back before the last output and the state are read."""
    names = _state_names(state_name, cell.state_size)
    initial_state = nest.pack_sequence_as(cell.state_size,
                                          [state_saver.state(name) for name in names])
    outputs, state = static_rnn(cell, inputs, initial_state=initial_state,
                                sequence_length=sequence_length, scope=scope)
    flat_state = nest.flatten(state)
    saves = [state_saver.save_state(name, part) for name, part in zip(names, flat_state)]
    with control_dependencies(saves):
        outputs[-1] = nest.map_structure(identity, outputs[-1])
        state = nest.pack_sequence_as(state, [identity(part) for part in flat_state])
    return outputs, state
