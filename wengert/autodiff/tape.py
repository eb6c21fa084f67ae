"""`GradientTape`: a Wengert list of the ops run eagerly inside its context.

While a tape is active, every op that consumes a tensor the tape watches is appended to the tape's
record list, and its outputs become watched too. `gradient(target, sources)` hands that list to
the one reverse pass (`backprop.backward`). Tensors are watched with `watch()`; trainable
variables are watched automatically when read (unless `watch_accessed_variables=False`).

A non-persistent tape releases its records after the first `gradient()`/`jacobian()` call, so the
intermediate values it kept can be freed; a second call raises RuntimeError. Tapes nest: ops that
an inner tape's `gradient()` runs are recorded by the outer tape, which gives second and higher
derivatives. Tapes are per thread (see framework.context).
"""
import contextlib
import sys
import warnings

from ..framework.context import state
from ..framework.heap_padding import pad_heap_top
from ..framework.tensor import Tensor, TensorLike, convert_to_tensor, is_eager_tensor
from ..framework.variables import Variable
from ..ops import broadcast_ops
from ..ops.io import script
from ..util import nest
from .backprop import UnconnectedGradients, backward
from .explain import explain_tape
from .jacobians import batch_jacobian, jacobian
from .targets import as_target, check_sources

__all__ = ["GradientTape"]

_RELEASED = ("A non-persistent GradientTape can only be used to compute one set of gradients "
             "(or jacobians); its records were released after the first call. Use "
             "GradientTape(persistent=True) to call gradient() several times.")


class GradientTape:
    """Record operations for automatic differentiation (TensorFlow's `tf.GradientTape`)."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        pad_heap_top()  # eager training steps make and free the same large arrays too
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._records = []
        self._watched = set()   # ids of watched tensors and variables, and of recorded outputs
        self._keep = []         # explicitly watched objects: keeps their ids unique
        self._watched_vars = []
        self._released = False
        self._entered = False
        self._paused_at = []    # (file, line) of each stop_recording(), for explain()

    # -- context ---------------------------------------------------------------------------------
    def __enter__(self):
        if self._released:
            raise RuntimeError(_RELEASED)
        self._entered = True
        state.tapes = state.tapes + (self,)
        return self

    def __exit__(self, *exc):
        self._entered = False
        self._pop()
        return False

    def _push(self):
        if self not in state.tapes:
            state.tapes = state.tapes + (self,)

    def _pop(self):
        if self in state.tapes:
            state.tapes = tuple(t for t in state.tapes if t is not self)

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops run inside this block are not recorded by this tape (other tapes still record)."""
        if self not in state.tapes:
            raise RuntimeError("stop_recording() needs a tape that is recording: use it inside "
                               "the tape's `with` block.")
        before = state.tapes
        caller = sys._getframe(2)  # the user's `with tape.stop_recording():` line
        self._paused_at.append((caller.f_code.co_filename, caller.f_lineno))
        self._pop()
        try:
            yield
        finally:
            if self._entered and not self._released and self not in state.tapes:
                # Back in its old place among the tapes that are still active.
                active = state.tapes
                state.tapes = tuple(t for t in before if t is self or t in active) + tuple(
                    t for t in active if t not in before)

    def reset(self):
        """Forget all records and watched tensors, as if the tape had just been entered.

        Inside the `with` block the tape keeps recording (a released non-persistent tape can
        be used again); outside it, the tape is simply emptied."""
        self._records = []
        self._watched = set()
        self._keep = []
        self._watched_vars = []
        self._paused_at = []
        self._released = False
        if self._entered:
            self._push()

    # -- watching ------------------------------------------------------------------------------
    def watch(self, tensor):
        """Watch a tensor, a variable, or a nested structure of them. While a graph is built
        (inside a tf.function), an eager tensor stands for the graph's capture of it: the ops
        that read it read the capture."""
        graph = state.graph
        if graph is not None:
            tensor = nest.map_structure(graph.captured, tensor)
        # is_eager_tensor(tensor), inline: once per call on the seed benchmark's path
        elif type(tensor) is Tensor and tensor._value.dtype.kind != "O":
            self._watched.add(id(tensor))
            self._keep.append(tensor)
            return
        for item in nest.flatten(tensor):
            if isinstance(item, Variable):
                self._watch_variable(item)
            elif isinstance(item, Tensor):
                if item.dtype.name == "string":
                    warnings.warn("GradientTape.watch: the dtype of the watched tensor must be "
                                  "floating (e.g. tf.float32), got tf.string: strings are not "
                                  "differentiable, so its gradient will be None.", stacklevel=2)
                self._watched.add(id(item))
                self._keep.append(item)
            else:
                raise ValueError(f"GradientTape.watch: expected a Tensor or Variable, got "
                                 f"{type(item).__name__}. Convert it first with "
                                 "constant() or convert_to_tensor().")

    def _watch_variable(self, var):
        if id(var) not in self._watched:
            self._watched.add(id(var))
            self._watched_vars.append(var)

    def watched_variables(self):
        """The variables this tape watched, in the order they were first watched."""
        return tuple(self._watched_vars)

    # -- differentiating -----------------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(target)/d(sources) in the structure of `sources`; a non-scalar target is summed
        (weighted by `output_gradients` when given)."""
        # is_eager_tensor(target), inline: every gradient() call passes here
        if type(target) is Tensor and output_gradients is None and not self._released:
            targets, seeds = [target], [broadcast_ops.ones_like_gradient(target)]  # the usual case
        else:
            targets, seeds = self._targets_and_seeds(target, output_gradients)
        if isinstance(sources, TensorLike):  # the common single-source case
            return self._backward(targets, seeds, [sources], unconnected_gradients)[0]
        if type(sources) in (list, tuple) and all(
                isinstance(s, TensorLike) for s in sources):  # a flat list: no nesting
            grads = self._backward(targets, seeds, list(sources), unconnected_gradients)
            return grads if type(sources) is list else tuple(grads)
        flat_sources = check_sources(sources)
        grads = self._backward(targets, seeds, flat_sources, unconnected_gradients)
        return nest.pack_sequence_as(sources, grads)

    def _targets_and_seeds(self, target, output_gradients):
        if self._released:
            raise RuntimeError(_RELEASED)
        targets = [target] if is_eager_tensor(target) else [
            as_target(t) for t in nest.flatten(target)]
        if output_gradients is None:
            seeds = [None] * len(targets)
        elif not nest.is_nested(target):
            seeds = [output_gradients]  # one target: its seed may be a list of numbers
        else:
            seeds = nest.flatten(output_gradients)
            if len(seeds) != len(targets):
                raise ValueError(f"output_gradients has {len(seeds)} entries but target has "
                                 f"{len(targets)}; give one gradient (or None) per target.")
        return targets, [_seed(t, s) for t, s in zip(targets, seeds)]

    def _backward(self, targets, seeds, sources, unconnected):
        """Run the reverse pass over this tape's records; release them if not persistent."""
        records = self._begin_reverse_pass()
        if state.graph is not None:  # eager sources captured by the graph: their captures
            sources = [state.graph.captured(s) for s in sources]
        reachable = self._watched if self._roots_among(sources) else None
        try:
            connected = self._connected(sources, targets)
            if state.graph is not None:  # building a graph: name the gradient nodes
                with state.graph.name_scope("gradient_tape"):
                    return backward(records, targets, connected, seeds, unconnected,
                                    reachable=reachable)
            return backward(records, targets, connected, seeds, unconnected, reachable=reachable,
                            consume=not self._persistent)
        finally:
            self._end_reverse_pass()

    def _roots_among(self, sources):
        """True when every tensor or variable this tape watched directly is a floating-point
        source. Then every record depends on a source (a record is made only for an op with a
        watched input), and the watched set is exactly what they reach from the sources."""
        ids = {id(s) for s in sources if s.dtype.is_differentiable}
        for root in self._watched_vars:
            if id(root) not in ids:
                return False
        for root in self._keep:
            if id(root) not in ids:
                return False
        return True

    def _begin_reverse_pass(self):
        """The records to differentiate. A non-persistent tape stops recording here (its own
        gradient ops are not recorded on it); `_end_reverse_pass` then releases it."""
        if self._released:
            raise RuntimeError(_RELEASED)
        if not self._persistent:
            self._pop()
        return self._records

    def _end_reverse_pass(self):
        if not self._persistent:
            self._release()

    def _connected(self, sources, targets=()):
        """The sources, with the ones this tape never watched masked so they get no gradient. A
        variable that is itself a target stays (d v / d v = 1 even when v was never read inside
        the tape, as in TensorFlow, whose target and source are then the same handle)."""
        watched = self._watched
        for t in targets:
            if isinstance(t, Variable):
                watched = watched | {id(t)}
        return [s if id(s) in watched else _Unwatched(s) for s in sources]

    def _release(self):
        """Drop the records. Tensors this tape alone recorded forget their op too, so a result
        the caller keeps (a loss) no longer holds the whole forward history in memory."""
        for op in self._records or ():
            if not op.shared and op.graph is None:  # graph ops keep their outputs
                for t in op.outputs:
                    t._op = None
        self._released = True
        self._records = None
        self._watched = set()
        self._keep = []
        self._pop()

    def explain(self, target, sources):
        """Why each source has (or has no) gradient of `target`: see autodiff/explain.py."""
        return explain_tape(self, target, sources)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """Full Jacobian: result[s] has shape target.shape + source.shape."""
        return jacobian(self, target, sources, unconnected_gradients, experimental_use_pfor)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobian: target [b, ...] and source [b, ...] give [b, *target[1:],
        *source[1:]] (assumes example i of the target depends only on example i of the source)."""
        return batch_jacobian(self, target, source, unconnected_gradients, experimental_use_pfor)


class _Unwatched:
    """Stands in for a source the tape never watched, so the reverse pass finds no path to it
    (TensorFlow returns None for such sources) while the result keeps its position."""

    __slots__ = ("source",)

    def __init__(self, source):
        self.source = source

    @property
    def dtype(self):
        return self.source.dtype

    @property
    def shape(self):
        return self.source.shape

    @property
    def _value(self):  # lets zeros_like build zeros for unconnected_gradients="zero"
        return self.source._value


def _seed(target, given):
    if given is None:
        return broadcast_ops.ones_like_gradient(target)
    seed = convert_to_tensor(given, dtype=target.dtype) if not isinstance(given, Tensor) else given
    if not seed.shape.is_compatible_with(target.shape):
        raise ValueError(f"output_gradients has shape {seed.shape} but its target has shape "
                         f"{target.shape}; they must match.")
    return seed


script.TAPE[0] = GradientTape  # py_function's gradient re-runs its function under a tape
