"""`KerasTensor`: a symbolic input or output of a functional model, and the `Node` that records
one layer call on such tensors.

Calling a layer on KerasTensors (`symbolic_call`, reached from `Layer.__call__`) builds the layer
from their shapes and returns new KerasTensors whose history is that call; a functional
`Model(inputs, outputs)` replays the nodes in order on real tensors (see models.py).
"""
from ...framework import dtypes
from ...framework.tensor_shape import TensorShape

__all__ = ["KerasTensor", "Node", "symbolic_call", "is_shape_list", "substitute"]


def is_shape_list(shape):
    """True for a list of shapes (a multi-input layer), False for one shape."""
    return isinstance(shape, (list, tuple)) and len(shape) > 0 and isinstance(
        shape[0], (list, tuple))


class KerasTensor:
    """A symbolic tensor of a functional model under construction: shape, dtype, history."""

    def __init__(self, shape, dtype="float32", history=None, name=None, sparse=False,
                 ragged=False):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.sparse = bool(sparse)  # stands for a SparseTensor (keras.Input(sparse=True))
        self.ragged = bool(ragged)  # stands for a RaggedTensor (keras.Input(ragged=True))
        self._keras_history = history  # (layer, node, output index)
        self.name = name

    @property
    def node(self):
        return self._keras_history[1] if self._keras_history else None

    def __repr__(self):
        layer = self._keras_history[0].name if self._keras_history else None
        return (f"<KerasTensor: shape={self.shape} dtype={self.dtype.name} "
                f"(created by layer {layer!r})>")

    def _unsupported(self, *_args, **_kwargs):
        raise TypeError("Arithmetic on symbolic Keras inputs is not available; wrap the "
                        "computation in a layer (e.g. keras.layers.Lambda) instead.")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _unsupported
    __truediv__ = __matmul__ = __neg__ = __getitem__ = _unsupported


def _symbolic_leaves(value, out):
    """Append the KerasTensors inside nested lists, tuples and dicts of `value` to `out`."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, KerasTensor):
            out.append(item)
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
    return out


def substitute(value, values):
    """`value` with each KerasTensor replaced by values[id(tensor)] (nested structures)."""
    if isinstance(value, KerasTensor):
        return values[id(value)]
    if isinstance(value, (list, tuple)):
        return type(value)(substitute(v, values) for v in value)
    if isinstance(value, dict):
        return {k: substitute(v, values) for k, v in value.items()}
    return value


class Node:
    """One call of a layer in a functional model: its inputs, and any KerasTensors among the
    other arguments (a second attention input, a mask, initial states)."""

    def __init__(self, layer, inputs, args, kwargs, training, outputs):
        self.layer, self.inputs, self.outputs = layer, inputs, outputs
        self.args, self.kwargs, self.training = args, kwargs, training
        self.extra_tensors = _symbolic_leaves([args, kwargs], [])

    @property
    def input_tensors(self):
        first = list(self.inputs) if isinstance(self.inputs, (list, tuple)) else [self.inputs]
        return first + self.extra_tensors

    @property
    def output_tensors(self):
        return list(self.outputs) if isinstance(self.outputs, (list, tuple)) else [self.outputs]


def symbolic_call(layer, inputs, args, kwargs, training):
    """`layer(inputs)` on KerasTensors: build the layer, record a Node, return KerasTensors."""
    multi = isinstance(inputs, (list, tuple))
    for x in (inputs if multi else [inputs]):
        if not isinstance(x, KerasTensor):
            raise TypeError(f"Layer {layer.name!r} was called on a mix of symbolic Keras inputs "
                            f"and other values ({x!r}); a functional model's layers take only "
                            "KerasTensors.")
    shapes = [x.shape for x in inputs] if multi else inputs.shape
    hook = getattr(layer, "_symbolic_build", None)
    if hook is not None:
        hook(inputs, args, kwargs)
    else:
        layer._build_from_shape(shapes)
    out_shape = layer.compute_output_shape(shapes)
    if layer._output_shape is None:
        layer._output_shape = out_shape
    node = Node(layer, inputs, args, kwargs, training, None)
    dtype = getattr(layer, "_symbolic_output_dtype", None) or layer.dtype
    if is_shape_list(out_shape):
        outputs = [KerasTensor(s, dtype, (layer, node, i)) for i, s in enumerate(out_shape)]
    else:
        outputs = KerasTensor(out_shape, dtype, (layer, node, 0))
    node.outputs = outputs
    layer._inbound_nodes.append(node)
    return outputs
