"""`keras.utils.is_keras_tensor` and `keras.utils.get_source_inputs`: symbolic tensors of
functional models.

get_source_inputs(tensor) walks back through the layer calls that produced `tensor` (the node
recorded by each layer call, keras/layers/keras_tensor.py) and lists the tensors no layer call
produced: the model inputs (those of InputLayers), each once, in the order first reached.
"""
from ..layers.keras_tensor import KerasTensor

__all__ = ["is_keras_tensor", "get_source_inputs"]


def is_keras_tensor(x):
    """True for a symbolic Keras tensor (an `Input` or a layer's output on one)."""
    return isinstance(x, KerasTensor)


def _is_source(tensor):
    history = getattr(tensor, "_keras_history", None)
    if not history or history[1] is None:
        return True
    node = history[1]
    return type(node.layer).__name__ == "InputLayer" or not node.input_tensors


def get_source_inputs(tensor):
    """The input tensors `tensor` was computed from (a list)."""
    if not is_keras_tensor(tensor):
        raise ValueError(f"get_source_inputs: expected a KerasTensor (a functional model's "
                         f"symbolic tensor), got {type(tensor).__name__}: {tensor!r}.")
    sources, seen, stack = [], set(), [tensor]
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        if _is_source(t):
            sources.append(t)
        else:
            stack.extend(reversed(t._keras_history[1].input_tensors))
    return sources
