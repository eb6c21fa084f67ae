"""Keras masks: which time steps of a sequence are padding, carried from layer to layer.

A mask is a bool tensor [batch, time] (True = a real step). The layer that makes one
(`Embedding(mask_zero=True)`: ids != 0; `Masking(mask_value)`: steps whose features are not all
equal to mask_value) attaches it to its output tensor; TensorFlow keeps it as the tensor's
`_keras_mask` attribute, here a table keyed by the tensor (held weakly: the entry goes when the
tensor does). `Layer.__call__` hands the mask of its input to `call(..., mask=...)` and, for
layers with `supports_masking`, attaches `compute_mask(inputs, mask)` to the outputs.
"""
import weakref

from ...framework.tensor import Tensor

__all__ = ["get_mask", "set_mask", "set_output_masks"]

_MASKS = {}  # id(tensor) -> (weak reference to the tensor, its mask)


def _forget(key, ref):
    entry = _MASKS.get(key)
    if entry is not None and entry[0] is ref:
        del _MASKS[key]


def set_mask(tensor, mask):
    """Attach `mask` to `tensor` (None removes it)."""
    if not isinstance(tensor, Tensor):
        return
    key = id(tensor)
    if mask is None:
        _MASKS.pop(key, None)
        return
    ref = weakref.ref(tensor, lambda r, key=key: _forget(key, r))
    _MASKS[key] = (ref, mask)


def get_mask(value):
    """The mask attached to a tensor (None if none); a list of masks for a list, or None when
    no element has one."""
    if isinstance(value, (list, tuple)):
        masks = [get_mask(v) for v in value]
        return None if all(m is None for m in masks) else masks
    entry = _MASKS.get(id(value))
    if entry is not None and entry[0]() is value:
        return entry[1]
    return None


def set_output_masks(layer, inputs, outputs, previous_mask):
    """Attach `layer.compute_mask(inputs, previous_mask)` to outputs that have no mask yet."""
    flat = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    if all(get_mask(t) is not None for t in flat):
        return
    masks = layer.compute_mask(inputs, previous_mask)
    if masks is None:
        return
    masks = list(masks) if isinstance(masks, (list, tuple)) and isinstance(
        outputs, (list, tuple)) else [masks] * len(flat)
    for tensor, mask in zip(flat, masks):
        if get_mask(tensor) is None and mask is not None:
            set_mask(tensor, mask)
