"""The exponential moving average of the weights (`use_ema=True`), as Keras 3 keeps it.

Each variable gets a slot "average". After every call (accumulating or not), with t the
optimizer's `iterations` before the increment and mu = ema_momentum:
    average <- m * average + (1 - m) * w,    m = mu if t > 0 else 0
so the first call copies the weights. With `ema_overwrite_frequency=f`, the weights are
replaced by their averages whenever (t + 1) is a multiple of f; otherwise
`finalize_variable_values(vars)` (called by fit after the last epoch) does it once at the end.
The averages cover every variable the optimizer was built with, updated or not this call.
"""
from ..ops.array_ops import where
from ..ops.math_ops import cast, equal, floormod, not_equal

__all__ = ["check_ema_options", "update_moving_averages", "averaged_pairs"]


def check_ema_options(use_ema, ema_momentum, ema_overwrite_frequency):
    if not use_ema:
        return
    if not 0 <= ema_momentum <= 1:
        raise ValueError(f"`ema_momentum` must be in the range [0, 1], got {ema_momentum!r}.")
    if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                    or ema_overwrite_frequency < 1):
        raise ValueError(f"`ema_overwrite_frequency` must be an integer >= 1 or None, got "
                         f"{ema_overwrite_frequency!r}.")


def update_moving_averages(optimizer):
    """Move every average toward its variable; overwrite the variables when it is time."""
    step = optimizer.iterations
    started = not_equal(step, 0)
    for var in optimizer._seen:
        average = optimizer._slots[id(var)]["average"]
        momentum = cast(started, var.dtype) * optimizer.ema_momentum
        average.assign(momentum * average + (1 - momentum) * var, read_value=False)
    frequency = optimizer.ema_overwrite_frequency
    if frequency:
        overwrite = equal(floormod(step + 1, frequency), 0)
        for var in optimizer._seen:
            var.assign(where(overwrite, optimizer._slots[id(var)]["average"], var),
                       read_value=False)


def averaged_pairs(optimizer):
    """[(variable, its moving average), ...] of an optimizer built with use_ema=True."""
    return [(var, optimizer._slots[id(var)]["average"]) for var in optimizer._seen]
