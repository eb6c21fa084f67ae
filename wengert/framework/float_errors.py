"""NumPy's floating-point error handling while wengert's kernels run: ignored, as TensorFlow's
kernels ignore it.

An op whose result holds inf or nan (log(0) = -inf, 1/0 = inf, 0/0 = nan, an overflowing exp) is
silent in TensorFlow; NumPy would print a RuntimeWarning such as "divide by zero encountered in
log" on every such call (or raise, under `np.seterr(all="raise")`). Every place that runs kernels
(eager execution, a compiled plan's run, constant folding) wraps them in

    token = set_errstate(IGNORE)
    try: ...kernel...
    finally: reset_errstate(token)

and the user's own NumPy settings hold everywhere else. NumPy keeps its error state in a context
variable, `ERRSTATE` here: setting and resetting it through the bound methods `set_errstate`
and `reset_errstate` costs about 0.15 microseconds (the eager hot path pays it per op), where
`np.errstate` costs several. With a NumPy that keeps
the state elsewhere, `ERRSTATE` is a stand-in that does the same through `np.errstate`.
"""
import numpy as np

__all__ = ["ERRSTATE", "IGNORE", "set_errstate", "reset_errstate"]


class _ErrstateStandIn:
    """ContextVar's set/reset over np.errstate, for a NumPy without the context variable."""

    def set(self, settings):
        state = np.errstate(**settings)
        state.__enter__()
        return state

    def reset(self, token):
        token.__exit__(None, None, None)


try:
    from numpy._core import _ufunc_config as _config

    ERRSTATE = _config._extobj_contextvar
    IGNORE = _config._make_extobj(all="ignore")
except (ImportError, AttributeError):  # NumPy without the context variable
    ERRSTATE, IGNORE = _ErrstateStandIn(), {"all": "ignore"}

set_errstate, reset_errstate = ERRSTATE.set, ERRSTATE.reset
