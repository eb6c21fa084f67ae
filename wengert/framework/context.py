"""Per-thread execution state: which tapes record, which graph (if any) is building, which
Session is the default.

Every op consults this state on each call, so it lives in one `threading.local` whose class
attributes are the defaults: reading `state.tapes` costs one attribute lookup. Two threads never
see each other's tapes, so two training loops in two threads never mix their records.
"""
import threading

__all__ = ["state", "executing_eagerly", "default_session"]


class _State(threading.local):
    tapes = ()          # active GradientTapes, innermost last (a tuple: cheap to test and copy)
    graph = None        # the Graph being built, or None in eager mode
    observers = ()      # per-op hooks after each eager op (forward mode, numeric checks)
    grad_observers = ()  # per-step hooks of the reverse pass (debugging.trace_backprop)
    eager_disabled = False  # compat.v1.disable_eager_execution()
    sessions = ()       # default Sessions (`with session:`, `session.as_default()`), innermost last
    scope_name = ""     # the eager name scope ("outer/inner/"): tf.name_scope outside graphs
    variable_hooks = ()  # called with each new eager Variable (a distribution scope broadcasts it)


state = _State()


def executing_eagerly():
    """True when ops run immediately (no graph is being built)."""
    return state.graph is None


def default_session():
    """The innermost default Session of this thread (runtime/session.py pushes and pops them);
    `Operation.run` and `Tensor.eval` use it."""
    if not state.sessions:
        raise ValueError("No default session: use `with Session() as sess:` or pass "
                         "session= explicitly.")
    return state.sessions[-1]
