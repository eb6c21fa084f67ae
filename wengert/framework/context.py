"""Per-thread execution state: which tapes record, which graph (if any) is building, which
Session is the default.

Every op consults this state on each call, so it lives in one `threading.local` whose class
attributes are the defaults: reading `state.tapes` costs one attribute lookup. Two threads never
see each other's tapes, so two training loops in two threads never mix their records.

`state_scope(graph, tapes, observers)` sets where ops go for the length of a block and puts the
caller's graph, tapes and observers back after it: `state_scope(None)` runs code eagerly and
unrecorded (init_scope, py_function bodies, tf.data stages), `state_scope(sub_graph)` traces a
branch or loop body into its own graph while the caller's tapes wait.

`op_scope(name, default_name)` is what a composite function opens around the ops it builds, as
TensorFlow's functions open `name_scope(name, default_name)`: building a graph, the ops are named
`<name>/...` (`<default_name>/...` when name is None, uniquified); eagerly, where op names are
unused, it is a shared empty context and costs one call.
"""
import contextlib
import threading

__all__ = ["state", "state_scope", "executing_eagerly", "default_session", "op_scope"]


class _State(threading.local):
    tapes = ()          # active GradientTapes, innermost last (a tuple: cheap to test and copy)
    graph = None        # the Graph being built, or None in eager mode
    observers = ()      # per-op hooks after each eager op (forward mode, numeric checks)
    grad_observers = ()  # per-step hooks of the reverse pass (debugging.trace_backprop)
    eager_disabled = False  # compat.v1.disable_eager_execution()
    sessions = ()       # default Sessions (`with session:`, `session.as_default()`), innermost last
    scope_name = ""     # the eager name scope ("outer/inner/"): tf.name_scope outside graphs
    variable_hooks = ()  # called with each new eager Variable (a distribution scope broadcasts it)
    profiler = None     # the running profiler (set on the class: every thread sees it)
    run_deadline = None  # time.monotonic() by which this thread's Session.run must end, or None


state = _State()


@contextlib.contextmanager
def state_scope(graph, tapes=(), observers=()):
    """Inside the block ops go to `graph` (None: they run eagerly), record on `tapes` and are
    shown to `observers`; the caller's three come back when the block ends, however it ends."""
    saved = state.graph, state.tapes, state.observers
    state.graph, state.tapes, state.observers = graph, tapes, observers
    try:
        yield
    finally:
        state.graph, state.tapes, state.observers = saved


_EAGER_SCOPE = contextlib.nullcontext()


def op_scope(name, default_name):
    """The name scope a composite function's ops take: `name` (or `default_name`) in a graph,
    nothing eagerly. `with op_scope(name, "rgb_to_hsv"):` around the function's body."""
    graph = state.graph
    if graph is None:
        return _EAGER_SCOPE
    return graph.name_scope(name or default_name)


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
