"""Keras' fused recurrent sequences (LSTMSequence, GRUSequence: ops/nn/rnn/) in TensorFlow's
FunctionDef form. TensorFlow has no such ops, so each becomes a PartitionedCall of a function of
the library holding the recurrence in TensorFlow's ops, traced into a standalone sub-graph whose
inputs are the op's (xw, the states, the recurrent kernel (and GRU's recurrent bias), the mask)
and whose outputs are the op's first ones (the output sequence and the final states):
- with a sequence length known while tracing, the steps unrolled: the same recurrence the
  sequences' forward-mode rules write over duals (lstm._forward, gru._forward), with zero
  tangents, masks included;
- otherwise, a while_loop over t < shape(xw)[0] whose body gathers xw[t], runs one cell step
  (LSTM: z = xw_t + h U; i, f, o = sigmoid, g = tanh; c = f c + i g; h = o tanh(c); GRU:
  gru._step), applies the step's mask (Keras's rule: where mask[t] is off the states are
  kept and the output repeats the last one, or is zero with zero_output_for_mask) and appends
  the output to the outputs (a loop variable of shape [None, B, H] that grows by one step),
  which control_flow_defs.py writes as TensorFlow's While.
The reserve outputs the gradient op reads have no TensorFlow form, so a function that
differentiates the sequence itself is not converted.
"""
from ..control_flow.subgraphs import trace
from ..framework.errors import InvalidArgumentError
from ..framework.protos.graph import NodeDef
from ..graph.node_defs import tensor_ref
from ..ops.nn.rnn import gru, lstm
from ..control_flow.while_loop import while_loop
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import concat, where
from ..ops.broadcast_ops import zeros_like
from ..ops.indexing_ops import gather
from ..ops.matmul_ops import matmul
from ..ops.nn.rnn.dual import Dual
from ..ops.query_ops import shape
from ..ops.reshape_ops import expand_dims
from ..ops.unary_ops import sigmoid, tanh

__all__ = ["SEQUENCES", "sequence_node"]

_CALL = "PartitionedCall"


def _lstm(xs, attrs):
    _, seq, h, c = lstm._forward(*(Dual(x) for x in xs[:4]), xs[4],
                                 attrs["zero_output_for_mask"])
    return [seq.value, h.value, c.value]


def _gru(xs, attrs):
    _, seq, h = gru._forward(*(Dual(x) for x in xs[:4]), xs[4], attrs["reset_after"],
                             attrs["zero_output_for_mask"])
    return [seq.value, h.value]


def _lstm_cell(x, states, u, units, attrs):
    h, c = states
    z = x + matmul(h, u)
    i, f = sigmoid(z[:, :units]), sigmoid(z[:, units:2 * units])
    g, o = tanh(z[:, 2 * units:3 * units]), sigmoid(z[:, 3 * units:])
    c = f * c + i * g
    return o * tanh(c), [o * tanh(c), c]


def _gru_cell(x, states, u, units, attrs, b_rec):
    h_new = gru._step(Dual(x), Dual(states[0]), Dual(u), Dual(b_rec), units,
                      attrs["reset_after"])[-1].value
    return h_new, [h_new]


def _looped(cell, n_states):
    """The sequence as a while_loop over its time steps (a length known only when it runs):
    the outputs grow by one step per iteration. With a mask, a step keeps the states and
    repeats the last output (or writes zeros) where its mask is off, Keras's rule."""
    def run(xs, attrs):
        xw, u, mask = xs[0], xs[3 if n_states == 2 else 2], xs[4]
        states = list(xs[1:1 + n_states]) if n_states == 2 else [xs[1]]
        step = cell if n_states == 2 else (
            lambda x, st, uu, units, at: _gru_cell(x, st, uu, units, at, xs[3]))
        units = int(u.shape[0])
        steps = shape(xw)[0]
        masked = mask.shape.num_elements() != 0
        zero_output = attrs["zero_output_for_mask"]

        def body(t, seq, last, *carried):
            out, new = step(gather(xw, t), list(carried), u, units, attrs)
            if masked:
                keep = expand_dims(gather(mask, t), 1)
                new = [where(keep, n, c) for n, c in zip(new, carried)]
                out = where(keep, out, zeros_like(out) if zero_output else last)
            return [t + 1, concat([seq, expand_dims(out, 0)], 0), out, *new]
        invariants = [TensorShape([]), TensorShape([None, None, units])] + [
            TensorShape([None, units])] * (1 + len(states))
        result = while_loop(lambda t, *_: t < steps, body,
                            [0, xw[:0, :, :units], zeros_like(states[0]), *states],
                            shape_invariants=invariants)
        return [result[1], *result[3:]]
    return run


SEQUENCES = {lstm.LSTM_SEQUENCE.type: (_lstm, _looped(_lstm_cell, 2)),
             gru.GRU_SEQUENCE.type: (_gru, _looped(_gru_cell, 1))}


def sequence_node(op, prefix, jobs, job_class):
    """([(op, NodeDef)], {wengert ref: TensorFlow ref}) of a fused sequence op; the function
    of its steps is appended to `jobs` (a job_class, control_flow_defs.Job)."""
    unrolled, looped = SEQUENCES[op.type]
    specs = [(t.dtype, t.shape) for t in op.inputs]
    static = op.inputs[0].shape.rank and op.inputs[0].shape[0] is not None
    recurrence = unrolled if static else looped
    try:
        graph, outputs = trace(f"{op.name}_steps", lambda *xs: recurrence(xs, op.attrs),
                               specs, None)
    except InvalidArgumentError as err:
        raise ValueError(f"its steps need a static sequence length: {err}") from None
    graph.outputs = list(outputs)
    text = "".join(c if c.isalnum() or c == "_" else "_" for c in op.name)
    name = f"{prefix}_{text}_steps"
    jobs.append(job_class(graph, name, [], "branch", 0, None))
    node = NodeDef(name=op.name, op=_CALL, input=[tensor_ref(t) for t in op.inputs])
    node.attr["f"].func.name = name
    node.attr["Tin"].list.type.extend(t.dtype.as_datatype_enum for t in op.inputs)
    node.attr["Tout"].list.type.extend(t.dtype.as_datatype_enum for t in outputs)
    for key in ("config", "config_proto", "executor_type"):
        node.attr[key].s = b""
    refs = {(op.name if k == 0 else f"{op.name}:{k}"): f"{op.name}:output:{k}"
            for k in range(len(outputs))}
    return [(op, node)], refs
