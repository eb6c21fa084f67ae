"""`keras.Function(inputs, outputs, name=None)`: the graph of layer calls between symbolic
inputs and outputs, callable on real tensors, without being a model (no weights of its own, no
training API), as Keras 3's Function is.

    a = keras.Input((3,)); h = keras.layers.Dense(2)(a)
    f = keras.Function(a, h)
    f(x)                          # the Dense layer applied to x

`inputs` and `outputs` are KerasTensors, lists of them, or dicts of them; a call takes its
inputs in the same structure and returns the outputs in theirs. The graph is recorded and
replayed exactly as a functional Model's (functional.py: the nodes in topological order, each
layer called with the arguments it was recorded with; training left to each layer's default).
An output that depends on an Input not among `inputs` is a ValueError. `operations` lists the
layers of the graph (its Input layers included), `compute_output_spec` gives KerasTensors of
the outputs' shapes and dtypes, `compute_output_shape` their shapes; `symbolic_call` replays
the graph on KerasTensors (recording each layer call), `rematerialized_call(fn)` is `fn` and
`quantized_call` raises NotImplementedError, as Keras's Operation's. Like Keras's, a Function
made of KerasTensors is not serializable: get_config raises NotImplementedError.
"""
from .functional import FunctionalMixin, _flat, _topological_nodes
from .layers.input_layer import InputLayer
from .layers.keras_tensor import KerasTensor
from . import backend

__all__ = ["Function"]


def _structure(value, fn):
    if isinstance(value, dict):
        return {k: fn(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(fn(v) for v in value)
    return fn(value)


class Function(FunctionalMixin):
    """A callable graph of layer calls from `inputs` to `outputs` (see the module docstring)."""

    def __init__(self, inputs, outputs, name=None):
        self.name = name or backend.unique_name("function")
        self._is_functional = True
        self._nested_inputs, self._nested_outputs = inputs, outputs
        self.inputs, self.outputs = _flat(inputs), _flat(outputs)
        for t in self.inputs + self.outputs:
            if not isinstance(t, KerasTensor):
                raise TypeError(f"keras.Function(inputs, outputs) expects KerasTensors from "
                                f"keras.Input and layer calls, got {t!r}.")
        self._nodes = _topological_nodes(self.outputs)
        known = {id(t) for t in self.inputs}
        for node in self._nodes:
            if isinstance(node.layer, InputLayer) and id(node.outputs) not in known:
                raise ValueError(f"keras.Function {self.name!r}: an output is not connected to "
                                 f"`inputs` (it depends on the Input {node.layer.name!r}, "
                                 "which is not among them).")

    @property
    def operations(self):
        """The layers of the graph, each once, in the order they run."""
        seen, out = set(), []
        for node in self._nodes:
            if id(node.layer) not in seen:
                seen.add(id(node.layer))
                out.append(node.layer)
        return out

    def __call__(self, inputs):
        return self.call(inputs)

    def call(self, inputs):
        """The outputs of the graph for `inputs` (in the structure of the Function's inputs)."""
        return self._run_functional(inputs, None)

    def compute_output_spec(self, inputs):
        """KerasTensors with the outputs' shapes and dtypes, in the outputs' structure."""
        return _structure(self._nested_outputs,
                          lambda t: KerasTensor(tuple(t.shape.as_list()), t.dtype))

    def compute_output_shape(self, input_shape):
        return _structure(self._nested_outputs, lambda t: tuple(t.shape.as_list()))

    def symbolic_call(self, inputs):
        """The graph replayed on KerasTensors: each layer's call recorded as a functional
        node, so a Function can be used inside a larger functional graph."""
        return self._run_functional(inputs, None)

    def quantized_call(self, *args, **kwargs):
        raise NotImplementedError(f"keras.Function {self.name!r} has no quantized call (as "
                                  "in Keras).")

    def rematerialized_call(self, fn, *args, **kwargs):
        """`fn` itself: a Function has no rematerialization mode."""
        return fn

    def get_config(self):
        raise NotImplementedError(f"keras.Function {self.name!r} was created from symbolic "
                                  "tensors, which are not serializable; a Function has no "
                                  "config (as in Keras). Save a keras.Model(inputs, outputs) "
                                  "instead.")
