"""Fusing a convolution with the per-image ops after it, when a plan compiles: a Conv2D whose
output only a BiasAdd reads, whose output only a Relu reads, ... becomes one step running
ops/nn/conv/epilogues.py's kernel, which takes each chunk of images through the whole chain
while it is in the cache (the values are the unfused ops' own, bit for bit: that module's
docstring says why).

A chain starts at a Conv2D (channels-last, a floating dtype) and takes, one after the other,
the single reader of the value so far while that reader is
  - BiasAdd, AddV2, Sub, Mul or Relu of the value and operands whose shapes are known and
    broadcast along the channel axis only (a bias, a batch norm's scale and offset), giving the
    value's shape and dtype; or
  - MaxPool (channels-last), which ends the chain.
"Single reader" counts every step's inputs and the plan's fetches: a value that something
else reads (a fetched activation, the Relu output a ReluGrad reads in a training step) ends the
chain there, so it is still computed whole. The fused step takes the place of the chain's last
op (its output slot) and names the Conv2D in errors and listings (a failure at run time is most
likely the convolution's: an input too small for the window); no stateful step may lie between
the Conv2D and the last op, so moving the convolution later reads the same inputs.

What it saves: bench/bench_tf_saved_model.py's loaded Keras CNN (Conv2D, BiasAdd, a batch
norm's Mul and AddV2, Relu, MaxPool; then Conv2D, BiasAdd, Relu, MaxPool) never writes its
two large activations to memory: see that bench's notes for the figures.
"""
from ..ops.math_ops import ADD, MUL, SUB
from ..ops.nn.activations import BIAS_ADD, RELU
from ..ops.nn.conv.conv2d import CONV2D
from ..ops.nn.conv.epilogues import conv_epilogue_kernel
from ..ops.nn.pool import MAX_POOL
from ..ops.nn.window_geometry import channels_first
from ..ops.shape_rules import static_shape

__all__ = ["fuse_conv_epilogues"]

_ELEMENTWISE = (BIAS_ADD, ADD, SUB, MUL, RELU)
_POOLS = (MAX_POOL,)


def fuse_conv_epilogues(steps, fetch_slots):
    """The steps with each fusable chain (module docstring) replaced by one step."""
    uses, reader = _readers(steps, fetch_slots)
    position = {id(step): i for i, step in enumerate(steps)}
    replaced, drop = {}, set()
    for step in steps:
        if step.op.op_def is not CONV2D or not _conv_fusable(step):
            continue
        chain = _chain(step, uses, reader)
        if len(chain) < 2:
            continue
        first, last = position[id(chain[0])], position[id(chain[-1])]
        if any(s.stateful for s in steps[first:last + 1]):
            continue
        replaced[id(chain[-1])] = _fused(chain)
        drop.update(id(s) for s in chain[:-1])
    if not replaced:
        return steps
    return [replaced.get(id(s), s) for s in steps if id(s) not in drop]


def _readers(steps, fetch_slots):
    """({slot: number of reads}, {slot: the last step reading it})."""
    uses, reader = {}, {}
    for step in steps:
        for slot in step.inputs:
            if type(slot) is int:  # not a Variable
                uses[slot] = uses.get(slot, 0) + 1
                reader[slot] = step
    for slot in fetch_slots:
        uses[slot] = uses.get(slot, 0) + 2
    return uses, reader


def _conv_fusable(step):
    out = step.op.outputs[0]
    return (not channels_first(step.attrs.get("data_format")) and out.dtype.is_floating
            and step.kernel is CONV2D.kernel and len(step.outputs) == 1)


def _chain(conv, uses, reader):
    """[conv, its fusable readers in order] (module docstring)."""
    chain = [conv]
    value = conv.outputs[0]
    while value is not None and uses.get(value) == 1:
        step = reader[value]
        op_def = step.op.op_def
        if step.kernel is not op_def.kernel or len(step.outputs) != 1:
            break
        if op_def in _POOLS and not channels_first(step.attrs.get("data_format")):
            chain.append(step)
            break
        if op_def not in _ELEMENTWISE or not _per_channel(step, value, chain[0]):
            break
        chain.append(step)
        value = step.outputs[0]
    return chain


def _per_channel(step, value, conv):
    """Whether an elementwise step keeps the value's shape and dtype, its other inputs being
    channel vectors (or scalars) of that dtype with known shapes."""
    if step.inputs.count(value) != 1 or channels_first(step.attrs.get("data_format")):
        return False
    conv_out = conv.op.outputs[0]
    out = step.op.outputs[0]
    if out.dtype != conv_out.dtype or static_shape(out) != static_shape(conv_out):
        return False
    channels = static_shape(conv_out)[-1] if static_shape(conv_out) else None
    for slot, tensor in zip(step.inputs, step.op.inputs):
        if slot == value:
            continue
        shape = static_shape(tensor)
        if (type(slot) is not int or tensor.dtype != out.dtype or shape is None
                or None in shape or len(shape) > len(static_shape(conv_out) or ())
                or any(d != 1 for d in shape[:-1]) or (shape and shape[-1] not in (1, channels))):
            return False
    return True


def _fused(chain):
    """One step computing the chain's last output with conv_epilogue_kernel."""
    conv, last = chain[0], chain[-1]
    operands, stages, pool = [], [], None
    value = conv.outputs[0]
    for step in chain[1:]:
        if step.op.op_def in _POOLS:
            pool = (step.op.op_def, dict(step.attrs))
            continue
        positions = []
        for slot in step.inputs:
            if slot == value:
                positions.append(None)
            else:
                positions.append(len(operands))
                operands.append(slot)
        stages.append((step.op.op_def, tuple(positions), dict(step.attrs)))
        value = step.outputs[0]
    fused = type(conv)(conv.op, list(conv.inputs) + operands, last.outputs)
    fused.kernel = conv_epilogue_kernel
    fused.attrs = {"conv": dict(conv.attrs), "stages": tuple(stages), "pool": pool}
    return fused
