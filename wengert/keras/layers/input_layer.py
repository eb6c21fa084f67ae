"""Symbolic inputs for functional models: `keras.Input` and `InputLayer`.

`Input(shape=(784,))` returns a KerasTensor (keras_tensor.py): a shape (batch dimension None) and
a dtype, no values. Calling a layer on KerasTensors builds the layer from their shapes and
returns new KerasTensors whose history records the call (a `Node`: layer, inputs, outputs). A
functional `Model(inputs, outputs)` replays those nodes in order on real tensors (see models.py).
"""
from ...framework.tensor_shape import TensorShape
from .. import backend
from .base import Layer, _standard_config
from .keras_tensor import KerasTensor, Node

__all__ = ["Input", "InputLayer", "KerasTensor"]


class InputLayer(Layer):
    """The layer behind `keras.Input`: no weights, its output is the model's input."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, name=None,
                 batch_input_shape=None, batch_shape=None, sparse=False, ragged=False,
                 optional=False, input_tensor=None, **kwargs):
        if sparse or ragged:
            raise NotImplementedError("InputLayer: sparse and ragged inputs are not available.")
        if batch_input_shape is None and batch_shape is not None:
            batch_input_shape = tuple(batch_shape)
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
        """Keras 3's InputLayer config."""
        return {"batch_shape": list(self._batch_input_shape), "dtype": self.dtype,
                "sparse": False, "ragged": False, "name": self.name, "optional": False}

    @classmethod
    def from_config(cls, config):
        return cls(**_standard_config(config))


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
