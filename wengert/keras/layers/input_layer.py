"""Symbolic inputs for functional models: `keras.Input`, `InputLayer`, `KerasTensor`.

`Input(shape=(784,))` returns a KerasTensor: a shape (batch dimension None) and a dtype, no
values. Calling a layer on KerasTensors builds the layer from their shapes and returns new
KerasTensors whose history records the call (a `Node`: layer, inputs, outputs). A functional
`Model(inputs, outputs)` replays those nodes in order on real tensors (see models.py).
"""
from ...framework import dtypes
from ...framework.tensor_shape import TensorShape
from .. import backend
from .base import Layer, _is_shape_list

__all__ = ["Input", "InputLayer", "KerasTensor"]


class KerasTensor:
    """A symbolic tensor of a functional model under construction: shape, dtype, history."""

    def __init__(self, shape, dtype, history=None, name=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
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


class Node:
    """One call of a layer in a functional model."""

    def __init__(self, layer, inputs, args, kwargs, training, outputs):
        self.layer, self.inputs, self.outputs = layer, inputs, outputs
        self.args, self.kwargs, self.training = args, kwargs, training

    @property
    def input_tensors(self):
        return list(self.inputs) if isinstance(self.inputs, (list, tuple)) else [self.inputs]

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
    layer._build_from_shape(shapes)
    out_shape = layer.compute_output_shape(shapes)
    if layer._output_shape is None:
        layer._output_shape = out_shape
    node = Node(layer, inputs, args, kwargs, training, None)
    if _is_shape_list(out_shape):
        outputs = [KerasTensor(s, layer.dtype, (layer, node, i)) for i, s in enumerate(out_shape)]
    else:
        outputs = KerasTensor(out_shape, layer.dtype, (layer, node, 0))
    node.outputs = outputs
    layer._inbound_nodes.append(node)
    return outputs


class InputLayer(Layer):
    """The layer behind `keras.Input`: no weights, its output is the model's input."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, name=None,
                 batch_input_shape=None, **kwargs):
        if batch_input_shape is None:
            if input_shape is None:
                raise ValueError("InputLayer needs input_shape (or batch_input_shape).")
            if isinstance(input_shape, int):
                input_shape = (input_shape,)
            batch_input_shape = (batch_size,) + tuple(input_shape)
        super().__init__(name=name or backend.unique_name("input", zero_based=False), dtype=dtype,
                         batch_input_shape=batch_input_shape, **kwargs)
        self.built = True
        self._build_input_shape = TensorShape(batch_input_shape)
        self._output_shape = TensorShape(batch_input_shape)
        node = Node(self, [], (), {}, None, None)
        node.outputs = KerasTensor(batch_input_shape, self._dtype, (self, node, 0),
                                   name=self.name)
        self._inbound_nodes.append(node)

    @property
    def output(self):
        return self._inbound_nodes[0].outputs

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype,
                "name": self.name}


def Input(shape=None, batch_size=None, name=None, dtype=None, batch_shape=None,  # noqa: N802
          **kwargs):
    """A symbolic input of a functional model (`keras.Input(shape=(784,))`), batch dim None."""
    if shape is None and batch_shape is None:
        raise ValueError("Please provide to Input a `shape` (the shape of one sample, without "
                         "the batch dimension).")
    if batch_shape is None:
        if isinstance(shape, int):
            shape = (shape,)
        batch_shape = (batch_size,) + tuple(shape)
    layer = InputLayer(batch_input_shape=tuple(batch_shape), dtype=dtype, name=name, **kwargs)
    return layer.output
