"""`wengert.debugging`: finding NaN/Inf at their source and tracing the reverse pass.

`enable_check_numerics()` / `disable_check_numerics()` / `check_numerics(t, message)` (numerics.py)
and `trace_backprop()` (trace.py). Explaining a missing gradient is `GradientTape.explain` and
`wengert.explain_gradients` (autodiff/explain.py).
"""
from .numerics import (NumericsError, check_numerics, disable_check_numerics,
                       enable_check_numerics)
from .trace import BackpropTrace, trace_backprop

__all__ = ["enable_check_numerics", "disable_check_numerics", "check_numerics", "NumericsError",
           "trace_backprop", "BackpropTrace"]
