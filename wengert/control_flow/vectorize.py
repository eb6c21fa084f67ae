"""vectorized_map: fn applied to every element along axis 0, run as batched ops where the ops
allow (TensorFlow's pfor), one op at a time in a loop where they do not.

fn is traced once, on placeholders shaped like one element, into a scratch graph. Its ops are
then replayed in order on the real (batched) values. An op none of whose inputs depends on the
elements runs unchanged. An op with batched inputs runs once for the whole batch when its
batching rule allows it:
- elementwise ops (declared batch-safe, whose output shape is the broadcast of their inputs'):
  every batched input gets size-1 axes after the batch axis up to the op's rank, so NumPy-style
  broadcasting lines the element axes up, and the leading batch axis rides along;
- ops whose rule is "right with the axis counted from the end" (`batch="negative_axis"`:
  softmax-like): their `axis` attribute is made negative and they run on the batched inputs;
- ops with a batching rule of their own (the OpDef's `vmap`, beside the op: MatMul becomes a
  broadcasting BatchMatMulV2, BiasAddGrad a sum over each example's axes).
Any other op falls back, as TensorFlow does, to a loop over the batch for that op alone: its
kernel on each element's arrays, stacked, when nothing would record the op, else `map_fn` of
the op (Python calls eagerly or with a known batch size, one while_loop otherwise); with
fallback_to_while_loop=False it raises instead, naming the op, and with warn=True (the default)
each fallback logs TensorFlow's warning on the "tensorflow" logger.

Because the replay runs ordinary ops, tapes record it and `tf.gradients` differentiates it (the
placeholders' values are the real elements; eager tensors fn captured keep their identity, so
their gradients flow). Outputs that do not depend on the elements are tiled along the batch.
"""
from itertools import repeat

import numpy as np

from ..framework.context import state, state_scope
from ..framework.execute import execute
from ..framework.float_errors import IGNORE, reset_errstate, set_errstate
from ..framework.tensor import Tensor, array_of, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.creation_ops import shape as shape_of, tile
from ..ops.reshape_ops import expand_dims
from ..ops.shape_rules import broadcast_shapes
from ..util import nest
from ..util.tf_logging import get_logger
from .functional import map_fn
from ..framework.variables import READ_VARIABLE, watch_on_read
from .subgraphs import SubGraph, placeholder_for

__all__ = ["vectorized_map"]


class _Trace(SubGraph):
    """The graph fn is traced into: it captures what fn uses from outside (eager tensors,
    tensors of an enclosing graph) as placeholders standing for those values, and reads
    variables itself, so a tape inside fn differentiates with respect to them."""

    reads_locally = False

    def capture_variable(self, var):
        """A read of `var` in this graph (tapes inside fn that watch accessed variables start
        watching it); the replay reads the variable where vectorized_map runs."""
        watch_on_read(var)
        return self.create_op(READ_VARIABLE, (var,), {}, var.name.rsplit(":", 1)[0] + "/read")

    def _capture_outer(self, t):
        if self.outer is not None:
            return super()._capture_outer(t)
        placeholder = self._new_placeholder(t, f"capture_{len(self.captures)}")
        self.captures.append((t, placeholder))
        self._by_outer[id(t)] = placeholder
        return placeholder


def _trace(fn, elems, flat):
    """fn traced on one-element placeholders: (graph, placeholders, output structure)."""
    graph = _Trace("vectorized_map", state.graph)
    graph._outer_tapes = state.tapes
    with state_scope(graph):
        holders = [placeholder_for(graph, t.dtype, TensorShape(list(t.shape)[1:]), f"element_{i}")
                   for i, t in enumerate(flat)]
        outputs = fn(nest.pack_sequence_as(elems, holders))
    return graph, holders, outputs


def _elementwise(op):
    """Batch-safe, and its output is the broadcast of its inputs (no axes of its own)."""
    if op.op_def.batch != "safe" or len(op.outputs) != 1 or not op.inputs:
        return False
    try:
        shape = op.inputs[0].shape
        for t in op.inputs[1:]:
            shape = broadcast_shapes(shape, t.shape)
    except Exception:  # noqa: BLE001 - not a broadcasting op
        return False
    out = op.outputs[0].shape
    return shape.rank is not None and out.rank == shape.rank and out.is_compatible_with(shape) \
        and shape.is_compatible_with(out)


def _aligned(value, traced_rank, rank):
    """A batched value [B, *s] with size-1 axes after B so it broadcasts at `rank`."""
    for _ in range(rank - traced_rank):
        value = expand_dims(value, 1)
    return value


def _run_batched(op, inputs, batched, fallback):
    """The op on the batch at once, or per element when its rule does not allow that;
    fallback = (fallback_to_while_loop, warn)."""
    if _elementwise(op):
        rank = op.outputs[0].shape.rank
        args = [_aligned(v, t.shape.rank, rank) if b else v
                for v, t, b in zip(inputs, op.inputs, batched)]
        return (execute(op.op_def, tuple(args), op.attrs),)
    if op.op_def.batch == "negative_axis" and "axis" in op.attrs and all(
            b or t.shape.rank == 0 for t, b in zip(op.inputs, batched)):
        axis = op.attrs["axis"]
        rank = op.inputs[0].shape.rank
        attrs = dict(op.attrs, axis=axis - rank if axis >= 0 else axis)
        return (execute(op.op_def, tuple(inputs), attrs),)
    rule = op.op_def.vmap
    if rule is not None and op.outputs[0].shape.rank is not None:
        out = rule(op, inputs, batched)
        if out is not None:
            return out
    allowed, warn = fallback
    if not allowed:
        raise ValueError(f"vectorized_map: op '{op.name}' (type {op.type}) has no batching rule; "
                         "pass fallback_to_while_loop=True to loop over the batch for it.")
    if warn:  # TensorFlow's warning, on its "tensorflow" logger
        get_logger().warning(f"Using a while_loop for converting {op.type} cause there is no "
                             "registered converter for this op.")
    return _loop(op, inputs, batched)


def _loop(op, inputs, batched):
    """The op once per element: its kernel on each element's arrays when nothing would record
    the op (no graph being built, no tape watching an input, no forward accumulator), else
    map_fn over its batched inputs, whose ops tapes record and graphs hold."""
    if state.graph is None and not state.observers and op.op_def.pure and \
            not _watched(inputs):
        out = _kernel_loop(op, inputs, batched)
        if out is not None:
            return out
    batched_values = [v for v, b in zip(inputs, batched) if b]

    def one(elements):
        it = iter(elements)
        args = [next(it) if b else v for v, b in zip(inputs, batched)]
        out = execute(op.op_def, tuple(args), op.attrs)
        return list(out) if isinstance(out, tuple) else [out]
    out = map_fn(one, batched_values)
    return tuple(out)


def _watched(inputs):
    return any(id(t) in tape._watched for tape in state.tapes for t in inputs)


def _kernel_loop(op, inputs, batched):
    """The op's kernel per element, results stacked: the loop map_fn would run, without a
    tensor per element (a tenth of its cost). None when a kernel fails: map_fn then runs the
    op through `execute`, which explains the failure."""
    arrays = [array_of(convert_to_tensor(v)) for v in inputs]
    count = next(a.shape[0] for a, b in zip(arrays, batched) if b)
    columns = [list(a) if b else repeat(a, count) for a, b in zip(arrays, batched)]
    kernel, attrs = op.op_def.kernel, op.attrs
    token = set_errstate(IGNORE)
    try:
        outs = [kernel(*args, **attrs) for args in zip(*columns)]
    except Exception:  # noqa: BLE001 - map_fn reruns it and raises the explained error
        return None
    finally:
        reset_errstate(token)
    if op.op_def.num_outputs == 1:
        return (Tensor(np.stack(outs)),)
    return tuple(Tensor(np.stack([o[k] for o in outs])) for k in range(op.op_def.num_outputs))


def _replay(graph, holders, flat, fallback):
    """{id(traced tensor): (value, is batched)} after running every traced op."""
    values = {id(h): (v, True) for h, v in zip(holders, flat)}
    values.update({id(placeholder): (outer, False) for outer, placeholder in graph.captures})
    for op in graph.get_operations():
        if all(id(t) in values for t in op.outputs):  # the element and capture placeholders
            continue
        if op.op_def is READ_VARIABLE:  # read where the map runs: outer tapes see the read
            values[id(op.outputs[0])] = (op.inputs[0]._as_tensor(None), False)
            continue
        inputs, batched = [], []
        for t in op.inputs:
            value, is_batched = values.get(id(t), (t, False))
            inputs.append(value)
            batched.append(is_batched)
        if any(batched):
            outs = _run_batched(op, inputs, batched, fallback)
        else:
            out = execute(op.op_def, tuple(inputs), op.attrs)
            outs = out if isinstance(out, tuple) else (out,)
        for t, v in zip(op.outputs, outs):
            values[id(t)] = (v, any(batched))
    return values


def _result(traced, values, count):
    if not isinstance(traced, Tensor) and not hasattr(traced, "op"):
        traced = convert_to_tensor(traced)
    value, is_batched = values.get(id(traced), (traced, False))
    if is_batched:
        return value
    value = convert_to_tensor(value)
    return tile(expand_dims(value, 0), [count] + [1] * value.shape.rank)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """fn applied to each element of `elems` along axis 0, the results stacked, computed with
    batched ops where their batching rules allow (else one op at a time in a loop)."""
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat or any(t.shape.rank in (0, None) for t in flat):
        raise ValueError("vectorized_map: elems must be tensors of rank >= 1 (known rank).")
    graph, holders, outputs = _trace(fn, elems, flat)
    values = _replay(graph, holders, flat, (fallback_to_while_loop, warn))
    count = flat[0].shape[0] if flat[0].shape[0] is not None and state.graph is None else \
        shape_of(flat[0])[0]
    return nest.pack_sequence_as(outputs, [_result(t, values, count)
                                           for t in nest.flatten(outputs)])

