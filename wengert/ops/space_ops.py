"""Moving spatial blocks into depth or batch, and back: space_to_depth, depth_to_space,
space_to_batch_nd (space_to_batch) and batch_to_space.

space_to_depth(x, b) on NHWC cuts the image into b x b blocks and stacks each block's pixels
along the channels: [n, h, w, c] -> [n, h/b, w/b, b*b*c], the block row first, then the block
column, then the channel. depth_to_space is its inverse. space_to_batch_nd(x, block, paddings)
zero-pads the M spatial axes after the batch axis, cuts them into blocks and moves each offset
within a block to its own batch entry: [n, s1, ..., sM, rest] -> [n * prod(block), (s1 + pads) /
b1, ..., rest], batch entries ordered by offset (b1's first) then by n. batch_to_space(x, block,
crops) is its inverse followed by a crop.

All four are permutations of elements (plus zero padding or cropping), so they are linear and
each one's gradient is the other applied to g with the same block (paddings and crops swapping
roles), as TensorFlow registers them.
"""
import numpy as np

from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop, linear
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.context import op_scope
from .shape_rules import int_tuple

__all__ = ["space_to_depth", "depth_to_space", "space_to_batch_nd", "space_to_batch",
           "batch_to_space", "required_space_to_batch_paddings"]


# -- space_to_depth / depth_to_space --------------------------------------------------------------
def _to_nhwc(x, data_format):
    return x.transpose(0, 2, 3, 1) if data_format == "NCHW" else x


def _from_nhwc(x, data_format):
    return x.transpose(0, 3, 1, 2) if data_format == "NCHW" else x


def _space_to_depth_kernel(x, block_size, data_format):
    x, b = _to_nhwc(x, data_format), block_size
    n, h, w, c = x.shape
    if h % b or w % b:
        raise ValueError(f"height {h} and width {w} must be multiples of block_size {b}")
    out = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return _from_nhwc(out.reshape(n, h // b, w // b, b * b * c), data_format)


def _depth_to_space_kernel(x, block_size, data_format):
    x, b = _to_nhwc(x, data_format), block_size
    n, h, w, c = x.shape
    if c % (b * b):
        raise ValueError(f"depth {c} must be a multiple of block_size^2 = {b * b}")
    out = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return _from_nhwc(out.reshape(n, h * b, w * b, c // (b * b)), data_format)


def _depth_rule(to_depth):
    def rule(x, block_size, data_format):
        if x.shape.rank not in (4, None):
            raise InvalidArgumentError(f"expected a 4-d input ({data_format}), got shape "
                                       f"{x.shape}.")
        if x.shape.rank is None:
            return TensorShape(None), x.dtype
        dims = list(x.shape)
        spatial, depth = ((2, 3), 1) if data_format == "NCHW" else ((1, 2), 3)
        b = block_size
        for axis in spatial:
            if dims[axis] is not None:
                if to_depth and dims[axis] % b:
                    raise InvalidArgumentError(f"dimension {dims[axis]} of shape {x.shape} is "
                                               f"not a multiple of block_size {b}.")
                dims[axis] = dims[axis] // b if to_depth else dims[axis] * b
        if dims[depth] is not None:
            if not to_depth and dims[depth] % (b * b):
                raise InvalidArgumentError(f"depth {dims[depth]} is not a multiple of "
                                           f"block_size^2 = {b * b}.")
            dims[depth] = dims[depth] * b * b if to_depth else dims[depth] // (b * b)
        return TensorShape(dims), x.dtype
    return rule


SPACE_TO_DEPTH = defop("SpaceToDepth", _space_to_depth_kernel, shape=_depth_rule(True),
                       grad=lambda op, g: execute(DEPTH_TO_SPACE, (g,), op.attrs), jvp=linear,
                       raw=lambda input, block_size, data_format="NHWC", name=None: space_to_depth(
                           input, block_size, data_format, name))
DEPTH_TO_SPACE = defop("DepthToSpace", _depth_to_space_kernel, shape=_depth_rule(False),
                       grad=lambda op, g: execute(SPACE_TO_DEPTH, (g,), op.attrs), jvp=linear,
                       returns_view=True,
                       raw=lambda input, block_size, data_format="NHWC", name=None: depth_to_space(
                           input, block_size, data_format, name))


def _depth_op(op_def, input, block_size, data_format, name):  # noqa: A002
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"{op_def.type}: data_format must be 'NHWC' or 'NCHW', got "
                         f"{data_format!r}.")
    if int(block_size) < 2:
        raise ValueError(f"{op_def.type}: block_size must be >= 2, got {block_size}.")
    return execute(op_def, (convert_to_tensor(input),),
                   {"block_size": int(block_size), "data_format": data_format}, name)


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Each block_size x block_size block of pixels moved into the channels."""
    return _depth_op(SPACE_TO_DEPTH, input, block_size, data_format, name)


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """The channels spread out into block_size x block_size blocks of pixels."""
    return _depth_op(DEPTH_TO_SPACE, input, block_size, data_format, name)


# -- space_to_batch_nd / batch_to_space -------------------------------------------------------------
def _space_to_batch_kernel(x, block_shape, paddings):
    m = len(block_shape)
    padded = np.pad(x, ((0, 0),) + tuple(paddings) + ((0, 0),) * (x.ndim - 1 - m))
    n, spatial, rest = padded.shape[0], padded.shape[1:1 + m], padded.shape[1 + m:]
    if any(s % b for s, b in zip(spatial, block_shape)):
        raise ValueError(f"padded spatial shape {spatial} must be a multiple of block_shape "
                         f"{list(block_shape)}")
    split = [n]
    for s, b in zip(spatial, block_shape):
        split += [s // b, b]
    blocks = padded.reshape(split + list(rest))
    order = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)]
    order += list(range(1 + 2 * m, blocks.ndim))
    return blocks.transpose(order).reshape(
        [n * int(np.prod(block_shape))] + [s // b for s, b in zip(spatial, block_shape)]
        + list(rest))


def _batch_to_space_kernel(x, block_shape, crops):
    m = len(block_shape)
    batch = x.shape[0] // int(np.prod(block_shape))
    if batch * int(np.prod(block_shape)) != x.shape[0]:
        raise ValueError(f"batch {x.shape[0]} must be a multiple of prod(block_shape) = "
                         f"{int(np.prod(block_shape))}")
    spatial, rest = x.shape[1:1 + m], x.shape[1 + m:]
    blocks = x.reshape(list(block_shape) + [batch] + list(spatial) + list(rest))
    order = [m]
    for i in range(m):
        order += [m + 1 + i, i]
    order += list(range(2 * m + 1, blocks.ndim))
    full = blocks.transpose(order).reshape(
        [batch] + [s * b for s, b in zip(spatial, block_shape)] + list(rest))
    key = (slice(None),) + tuple(slice(a, s * b - c) for (a, c), s, b in zip(
        crops, spatial, block_shape))
    return full[key].copy()


def _batch_rule(to_batch):
    def rule(x, block_shape, **kw):
        pairs = kw.get("paddings", kw.get("crops"))
        m = len(block_shape)
        if x.shape.rank is None:
            return TensorShape(None), x.dtype
        if x.shape.rank < m + 1:
            raise InvalidArgumentError(f"input of shape {x.shape} needs at least {m + 1} "
                                       f"dimensions for a block of {m}.")
        dims = list(x.shape)
        total = int(np.prod(block_shape))
        if dims[0] is not None:
            if not to_batch and dims[0] % total:
                raise InvalidArgumentError(f"batch {dims[0]} is not a multiple of "
                                           f"prod(block_shape) = {total}.")
            dims[0] = dims[0] * total if to_batch else dims[0] // total
        for i, (b, (lo, hi)) in enumerate(zip(block_shape, pairs)):
            d = dims[1 + i]
            if d is None:
                continue
            if to_batch:
                if (d + lo + hi) % b:
                    raise InvalidArgumentError(f"spatial dimension {d} plus paddings "
                                               f"({lo}, {hi}) is not a multiple of {b}.")
                dims[1 + i] = (d + lo + hi) // b
            else:
                dims[1 + i] = d * b - lo - hi
        return TensorShape(dims), x.dtype
    return rule


SPACE_TO_BATCH = defop(
    "SpaceToBatchND", _space_to_batch_kernel, shape=_batch_rule(True), jvp=linear,
    grad=lambda op, g: execute(BATCH_TO_SPACE, (g,), {"block_shape": op.get_attr("block_shape"),
                                                      "crops": op.get_attr("paddings")}),
    raw=lambda input, block_shape, paddings, name=None: space_to_batch_nd(
        input, block_shape, paddings, name))
BATCH_TO_SPACE = defop(
    "BatchToSpaceND", _batch_to_space_kernel, shape=_batch_rule(False), jvp=linear,
    grad=lambda op, g: execute(SPACE_TO_BATCH, (g,), {"block_shape": op.get_attr("block_shape"),
                                                      "paddings": op.get_attr("crops")}),
    raw=lambda input, block_shape, crops, name=None: batch_to_space(input, block_shape, crops,
                                                                    name))


def _block_args(block_shape, pairs, what):
    block = int_tuple(block_shape, "block_shape")
    flat = int_tuple(pairs, what)
    if len(flat) != 2 * len(block) or any(b < 1 for b in block) or any(p < 0 for p in flat):
        raise ValueError(f"block_shape {list(block)} must be positive and {what} "
                         f"{list(flat)} hold a non-negative [start, end] pair per block axis.")
    return block, tuple(zip(flat[0::2], flat[1::2]))


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """The spatial axes zero-padded, cut into blocks, each block offset moved to the batch."""
    block, pairs = _block_args(block_shape, paddings, "paddings")
    return execute(SPACE_TO_BATCH, (convert_to_tensor(input),),
                   {"block_shape": block, "paddings": pairs}, name)


space_to_batch = space_to_batch_nd


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    """The inverse of space_to_batch_nd: batch entries moved back into blocks, then cropped."""
    block, pairs = _block_args(block_shape, crops, "crops")
    return execute(BATCH_TO_SPACE, (convert_to_tensor(input),),
                   {"block_shape": block, "crops": pairs}, name)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) for space_to_batch_nd / batch_to_space: base_paddings extended at the
    end of each axis so the padded size is a multiple of the block, and the crops that undo the
    extension (int32 [M, 2] tensors; the shapes must be known)."""
    with op_scope(name, "required_space_to_batch_paddings"):
        shape = np.asarray(int_tuple(input_shape, "input_shape"))
        block = np.asarray(int_tuple(block_shape, "block_shape"))
        base = np.zeros((block.size, 2), np.int64) if base_paddings is None else np.asarray(
            int_tuple(base_paddings, "base_paddings")).reshape(-1, 2)
        full = shape + base[:, 0] + base[:, 1]
        extra = (block - full % block) % block
        paddings = np.stack([base[:, 0], base[:, 1] + extra], axis=1).astype(np.int32)
        crops = np.stack([np.zeros_like(extra), extra], axis=1).astype(np.int32)
        return convert_to_tensor(paddings), convert_to_tensor(crops)
