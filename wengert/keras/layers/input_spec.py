"""`keras.InputSpec`: what a layer says its inputs must be (dtype, shape or rank bounds, the
sizes of some axes), as Keras 3 records it.

`InputSpec(dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
allow_last_axis_squeeze=False, name=None, optional=False)`: `dtype` is standardized to its
name; a `shape` fixes `ndim` to its length (and `ndim` given alone leaves `shape` None);
`axes` maps an axis (an int, or a string of one) to its required size, and an axis beyond
the last allowed by `ndim` / `max_ndim` is a ValueError, a key that is not an integer a
TypeError. `get_config()` is Keras's dict (dtype, shape, ndim, max_ndim, min_ndim, axes,
optional: not name or allow_last_axis_squeeze), and `from_config(config)` makes one back.
"""
from ...framework import dtypes

__all__ = ["InputSpec"]


class InputSpec:
    """The expected dtype, rank and axis sizes of a layer's input (see the module docstring)."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtypes.as_dtype(dtype).name if dtype is not None else None
        if shape is not None:
            self.shape = tuple(None if d is None else int(d) for d in shape)
            self.ndim = len(self.shape)
        else:
            self.shape, self.ndim = None, ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.name, self.optional = name, optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. Received: "
                            f"axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            if max(self.axes) > max_dim:
                raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed "
                                 f"value: {max_dim}")

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                         ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                         ("min_ndim", self.min_ndim), ("axes", self.axes)) if v]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes,
                "optional": self.optional}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
