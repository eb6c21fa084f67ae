"""Gradient clipping as the Keras optimizers do it, before the update.

- clipnorm=c: each gradient g is rescaled to norm at most c, g * c / max(||g||, c), on its own.
- global_clipnorm=c: all gradients are rescaled by one factor c / max(global_norm, c), where the
  global norm is sqrt(sum_i ||g_i||^2), so the direction of the whole update is kept.
- clipvalue=c: each entry is clipped to [-c, c] (this changes the direction).

At most one of them may be set (as in Keras 3). None gradients stay None.
"""
from ..ops.clip_ops import clip_by_global_norm, clip_by_norm, clip_by_value

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
        return [None if g is None else clip_by_norm(g, clipnorm) for g in grads]
    if global_clipnorm is not None:
        return clip_by_global_norm(grads, global_clipnorm)[0]
    if clipvalue is not None:
        return [None if g is None else clip_by_value(g, -clipvalue, clipvalue) for g in grads]
    return list(grads)
