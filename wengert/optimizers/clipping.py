"""Gradient clipping as the Keras optimizers do it, before the update.

- clipnorm=c: each gradient g is rescaled to norm at most c, g * c / max(||g||, c), on its own.
- global_clipnorm=c: all gradients are rescaled by one factor c / max(global_norm, c), where the
  global norm is sqrt(sum_i ||g_i||^2), so the direction of the whole update is kept.
- clipvalue=c: each entry is clipped to [-c, c] (this changes the direction).

At most one of them may be set (as in Keras 3). None gradients stay None. A sparse gradient
(IndexedSlices) is clipped through its values and stays sparse, as TensorFlow does (its norm is
that of the values, which equals the dense norm when no index repeats).
"""
from ..framework.indexed_slices import IndexedSlices
from ..ops.nn.clip import clip_by_global_norm, clip_by_norm
from ..ops.math_ops import clip_by_value

__all__ = ["check_clip_options", "clip_gradients"]


def check_clip_options(clipnorm, clipvalue, global_clipnorm):
    given = [name for name, value in (("clipnorm", clipnorm), ("clipvalue", clipvalue),
                                      ("global_clipnorm", global_clipnorm)) if value is not None]
    if len(given) > 1:
        raise ValueError(f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set; "
                         f"got {', '.join(given)}.")
    for name, value in (("clipnorm", clipnorm), ("clipvalue", clipvalue),
                        ("global_clipnorm", global_clipnorm)):
        if value is not None and not value > 0:
            raise ValueError(f"`{name}` must be a positive number, got {value!r}.")


def clip_gradients(grads, clipnorm=None, clipvalue=None, global_clipnorm=None):
    """The gradients clipped by the one option that is set (unchanged when none is)."""
    if clipnorm is not None:
        return [_on_values(g, lambda t: clip_by_norm(t, clipnorm)) for g in grads]
    if global_clipnorm is not None:
        values = [g.values if type(g) is IndexedSlices else g for g in grads]
        clipped = clip_by_global_norm(values, global_clipnorm)[0]
        return [_on_values(g, lambda t, c=c: c) for g, c in zip(grads, clipped)]
    if clipvalue is not None:
        return [_on_values(g, lambda t: clip_by_value(t, -clipvalue, clipvalue)) for g in grads]
    return list(grads)


def _on_values(g, fn):
    """fn applied to a dense gradient, or to the values of a sparse one; None stays None."""
    if g is None:
        return None
    if type(g) is IndexedSlices:
        return IndexedSlices._of(fn(g.values), g.indices, g._static, g._like)
    return fn(g)
