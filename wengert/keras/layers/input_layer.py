"""Symbolic inputs for functional models: `keras.Input` and `InputLayer`.

`Input(shape=(784,))` returns a KerasTensor (keras_tensor.py): a shape (batch dimension None) and
a dtype, no values. Calling a layer on KerasTensors builds the layer from their shapes and
returns new KerasTensors whose history records the call (a `Node`: layer, inputs, outputs). A
functional `Model(inputs, outputs)` replays those nodes in order on real tensors (see models.py).
`InputLayer(input_tensor=t)` makes an existing KerasTensor the layer's output (its shape and
dtype become the layer's; the other shape and dtype arguments must agree with them), as Keras 3
does.
"""
from ...framework import dtypes
from ...framework.tensor_shape import TensorShape
from .. import backend
from .base import Layer, _standard_config
from .keras_tensor import KerasTensor, Node

__all__ = ["Input", "InputLayer", "KerasTensor"]


class InputLayer(Layer):
    """The layer behind `keras.Input`: no weights, its output is the model's input."""

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=False, ragged=False,
                 batch_shape=None, input_tensor=None, optional=False, name=None, **kwargs):
        input_shape = kwargs.pop("input_shape", shape)
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        if sparse and ragged:
            raise ValueError("You cannot pass both `sparse=True` and `ragged=True` to an "
                             "InputLayer: an input is one or the other.")
        self._sparse, self._ragged = bool(sparse), bool(ragged)
        if input_tensor is not None:
            batch_input_shape, dtype = _from_tensor(input_tensor, input_shape, batch_size,
                                                    batch_shape or batch_input_shape, dtype)
        if batch_input_shape is None and batch_shape is not None:
            batch_input_shape = tuple(batch_shape)
        if batch_input_shape is None:
            if input_shape is None:
                raise ValueError("InputLayer needs `shape` (or `batch_shape`, or "
                                 "`input_tensor`).")
            if isinstance(input_shape, int):
                input_shape = (input_shape,)
            batch_input_shape = (batch_size,) + tuple(input_shape)
        super().__init__(name=name or backend.unique_name("input_layer"), dtype=dtype,
                         batch_input_shape=batch_input_shape, **kwargs)
        self.built = True
        self._build_input_shape = TensorShape(batch_input_shape)
        self._output_shape = TensorShape(batch_input_shape)
        node = Node(self, [], (), {}, None, None)
        if input_tensor is None:
            input_tensor = KerasTensor(batch_input_shape, self._dtype, name=self.name,
                                       sparse=self._sparse, ragged=self._ragged)
        input_tensor._keras_history = (self, node, 0)
        node.outputs = input_tensor
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
                "sparse": self._sparse, "ragged": self._ragged, "name": self.name, "optional": False}

    @classmethod
    def from_config(cls, config):
        return cls(**_standard_config(config))


def _from_tensor(tensor, shape, batch_size, batch_shape, dtype):
    """The batch shape and dtype of `input_tensor`, after Keras 3's checks that the other
    arguments agree with it."""
    if not isinstance(tensor, KerasTensor):
        raise ValueError(f"InputLayer: argument `input_tensor` must be a KerasTensor (from "
                         f"keras.Input or a layer call). Received: input_tensor={tensor!r} (of "
                         f"type {type(tensor).__name__})")
    full = tuple(tensor.shape)
    if isinstance(shape, int):
        shape = (shape,)
    checks = (("batch_size", batch_size, lambda: full[:1] == (batch_size,)),
              ("shape", shape, lambda: tuple(shape) == full[1:]),
              ("batch_shape", batch_shape, lambda: tuple(batch_shape) == full),
              ("dtype", dtype, lambda: dtypes.as_dtype(dtype) == tensor.dtype))
    for name, value, agrees in checks:
        if value is not None and not agrees():
            raise ValueError(f"InputLayer: when providing the `input_tensor` argument (shape "
                             f"{full}, dtype {tensor.dtype.name}), you cannot provide an "
                             f"incompatible `{name}` argument. Received: {name}={value!r}")
    return full, tensor.dtype.name


def Input(shape=None, batch_size=None, name=None, dtype=None, batch_shape=None,  # noqa: N802
          tensor=None, **kwargs):
    """A symbolic input of a functional model (`keras.Input(shape=(784,))`), batch dim None;
    `tensor=` makes an existing KerasTensor the input (InputLayer's input_tensor)."""
    if tensor is not None:
        return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, name=name,
                          batch_shape=batch_shape, input_tensor=tensor, **kwargs).output
    if shape is None and batch_shape is None:
        raise ValueError("Please provide to Input a `shape` (the shape of one sample, without "
                         "the batch dimension).")
    if batch_shape is None:
        if isinstance(shape, int):
            shape = (shape,)
        batch_shape = (batch_size,) + tuple(shape)
    layer = InputLayer(batch_input_shape=tuple(batch_shape), dtype=dtype, name=name, **kwargs)
    return layer.output
