"""Rematerialization (gradient checkpointing), as Keras 3 offers it: `keras.remat(f)` and
`keras.RematScope(mode="full", output_size_threshold=1024, layer_names=None)`.

`remat(f)` is `f` whose intermediate activations are not kept for the backward pass but
recomputed there (wengert's `recompute_grad`, as Keras's TensorFlow backend uses
tf.recompute_grad): the same values and gradients, less memory held between the passes.

A layer made inside `with RematScope(mode=...)` keeps the innermost scope's mode
(`layer._remat_mode`, a RematMode(mode, output_size_threshold, layer_names)) and its calls
go through `rematerialized_call` (layers/call_variants.py): mode "full" recomputes every such
layer's call; "larger_than" those whose output has more than `output_size_threshold` elements
(unknown dimensions counted as 1); "list_of_layers" the layers named in `layer_names`;
"activations" only the layer's `activation` function; None nothing. Another mode is a
ValueError.
"""
import collections
import threading

from ..autodiff.custom import recompute_grad

__all__ = ["RematScope", "RematMode", "remat", "get_current_remat_mode"]

_MODES = ("full", "activations", "larger_than", "list_of_layers", None)
RematMode = collections.namedtuple("RematMode", ["mode", "output_size_threshold",
                                                 "layer_names"])


class _Stack(threading.local):
    scopes = ()


_stack = _Stack()


class RematScope:
    """Layers made inside rematerialize their calls as `mode` says (module docstring)."""

    def __init__(self, mode="full", output_size_threshold=1024, layer_names=None):
        if mode not in _MODES:
            raise ValueError(f"Invalid mode '{mode}'. Supported modes are: 'full', "
                             "'activations', 'larger_than', 'list_of_layers', or  None.")
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = layer_names or []

    def __enter__(self):
        _stack.scopes = _stack.scopes + (self,)
        return self

    def __exit__(self, *exc):
        _stack.scopes = _stack.scopes[:-1]


def get_current_remat_mode():
    """The innermost RematScope's RematMode, or None outside every scope."""
    if not _stack.scopes:
        return None
    scope = _stack.scopes[-1]
    return RematMode(scope.mode, scope.output_size_threshold, scope.layer_names)


def remat(f):
    """`f` with its activations recomputed in the backward pass."""
    return recompute_grad(f)
