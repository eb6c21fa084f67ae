"""Keras' fused recurrent sequences (LSTMSequence, GRUSequence: ops/nn/rnn/) in TensorFlow's
FunctionDef form. TensorFlow has no such ops, so each becomes a PartitionedCall of a function of
the library holding the recurrence step by step in TensorFlow's ops: the same recurrence the
sequences' forward-mode rules write over duals (lstm._forward, gru._forward), traced here with
zero tangents into a standalone sub-graph whose inputs are the op's (xw, the states, the
recurrent kernel, the mask) and whose outputs are the op's first ones (the output sequence and
the final states). The steps are unrolled, so the number of time steps must be known while the
function is traced (a Keras Input with a fixed sequence length); the reserve outputs the
gradient op reads have no TensorFlow form, so a function that differentiates the sequence
itself is not converted.
"""
from ..control_flow.subgraphs import trace
from ..framework.errors import InvalidArgumentError
from ..framework.protos.graph import NodeDef
from ..graph.node_defs import tensor_ref
from ..ops.nn.rnn import gru, lstm
from ..ops.nn.rnn.dual import Dual

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


SEQUENCES = {lstm.LSTM_SEQUENCE.type: _lstm, gru.GRU_SEQUENCE.type: _gru}


def sequence_node(op, prefix, jobs, job_class):
    """([(op, NodeDef)], {wengert ref: TensorFlow ref}) of a fused sequence op; the function
    of its steps is appended to `jobs` (a job_class, control_flow_defs.Job)."""
    recurrence = SEQUENCES[op.type]
    specs = [(t.dtype, t.shape) for t in op.inputs]
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
