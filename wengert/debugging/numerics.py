"""Finding NaN and Inf where they are born, in the forward pass and in the backward pass.

`enable_check_numerics()` installs one per-op observer (`state.observers`, called by `execute`
after every eager op, in this thread). It checks each floating-point output with
`np.isfinite(...).all()` and raises `NumericsError` at the first op that produced a NaN or an
Inf, naming the op type, the value ranges of its inputs and the line of user code that ran it.
The same observer records that line on each op a tape records (`Operation.traceback`), so a later
failure in the backward pass can say where the forward op was created.

The backward pass needs no hook of its own: gradient rules are written in wengert ops, so every
number they compute goes through the same observer. When a gradient op produces NaN/Inf, the
observer looks up the interpreter stack (only then, never on the fast path) for the frame of the
reverse pass, `autodiff.backprop.backward`, whose local `op` is the forward op being
differentiated: the error names that op (e.g. the `Sqrt` whose rule divided 0 by 0 at x = 0
under a `where`), the gradient op inside its rule, and both lines of user code.

When no check is enabled the observer tuple is empty and ops pay nothing. Graphs run by a
`Session` are not checked (their executor is generated code); `tf.function` calls are, because
an active observer makes them replay their ops through `execute`. `check_numerics(t, message)` is
TensorFlow's `CheckNumerics` op: identity, raising when `t` has NaN/Inf, and its gradient checks
the incoming gradient the same way.
"""
import os
import sys

import numpy as np

from ..autodiff import backprop
from ..framework.context import state
from ..framework.errors import InvalidArgumentError
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor import array_of, convert_to_tensor
from ..ops import shape_rules

__all__ = ["enable_check_numerics", "disable_check_numerics", "check_numerics", "NumericsError",
           "user_frame"]

_WENGERT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class NumericsError(InvalidArgumentError):
    """A NaN or Inf was produced. Fields: `op_type`, `op_name`, `phase` ("forward" or
    "backward"), `forward_op` (backward: the op whose gradient rule produced it), `location`
    (file, line) of the user code that ran the op (forward) or created the forward op."""

    def __init__(self, message, op_type, op_name, phase, forward_op=None, location=None):
        super().__init__(message, forward_op)
        self.op_type = op_type
        self.op_name = op_name
        self.phase = phase
        self.forward_op = forward_op
        self.location = location


# -- the user's line of code ---------------------------------------------------------------------
def user_frame(depth=1):
    """(filename, lineno, function) of the innermost caller outside the wengert package."""
    frame = sys._getframe(depth)
    while frame is not None and frame.f_code.co_filename.startswith(_WENGERT_DIR):
        frame = frame.f_back
    if frame is None:
        return None
    return frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name


_PATH_LENGTH_LIMIT = [50]   # enable_check_numerics(path_length_limit=)


def format_location(location):
    """file:line in function, the file's path cut to its last path_length_limit characters
    after "..." (TensorFlow's limit_string_length)."""
    if not location:
        return "unknown (enable check numerics before the forward pass to record it)"
    filename, lineno, function = location
    limit = _PATH_LENGTH_LIMIT[0]
    if limit is not None and len(filename) > limit:
        filename = "..." + filename[len(filename) - limit:]
    return f"{filename}:{lineno} in {function}"


# -- the observer --------------------------------------------------------------------------------
def _check_op(op_def, inputs, outputs, attrs, name):
    """Per-op hook: record the user line on recorded ops; raise on a non-finite output."""
    for out in outputs:
        op = out._op
        if op is not None and op.traceback is None:
            op.traceback = user_frame(2)
        value = array_of(out)
        if value.dtype.kind in "fc" and not np.isfinite(value).all():
            raise _error(op_def, inputs, out, name)


def _error(op_def, inputs, out, name):
    op_name = name or op_def.type
    forward = _forward_op_in_backward_pass()
    found = _describe_bad(array_of(out))
    ins = "\n".join(f"  input {i}: {describe_range(t)}" for i, t in enumerate(inputs))
    here = user_frame(3)
    if forward is None:
        message = (f"check_numerics: {op_def.type} (op '{op_name}') produced {found} in the "
                   f"forward pass.\n  at {format_location(here)}\n{ins}")
        return NumericsError(message, op_def.type, op_name, "forward", None, here)
    made_at = forward.traceback
    f_ins = "\n".join(f"  forward input {i}: {describe_range(t)}"
                      for i, t in enumerate(forward.inputs))
    message = (f"check_numerics: the gradient rule of {forward.type} (op '{forward.name}') "
               f"produced {found} in the backward pass, in its {op_def.type} op.\n"
               f"  {forward.type} was created at {format_location(made_at)}\n{f_ins}\n"
               f"  inputs of the {op_def.type} op in the rule:\n"
               + "\n".join(f"  {line}" for line in ins.splitlines())
               + f"\n  gradient() was called at {format_location(here)}")
    return NumericsError(message, op_def.type, op_name, "backward", forward, made_at)


def _forward_op_in_backward_pass():
    """The forward op whose gradient the reverse pass is computing right now, or None."""
    code = backprop.backward.__code__
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is code:
            return frame.f_locals.get("op")
        frame = frame.f_back
    return None


def _describe_bad(value):
    nan = int(np.isnan(value).sum())
    pos = int(np.isposinf(value).sum()) if value.dtype.kind == "f" else 0
    neg = int(np.isneginf(value).sum()) if value.dtype.kind == "f" else 0
    parts = [f"{n} {what}" for n, what in ((nan, "NaN"), (pos, "+Inf"), (neg, "-Inf")) if n]
    return f"{', '.join(parts)} (of {value.size} values)"


def describe_range(t):
    """`float32[3] range [0, 4]`: dtype, shape and the range of finite values (NaN/Inf counted)."""
    value = array_of(t)
    spec = f"{t.dtype.name}{list(t.shape)}"
    if value is None or not hasattr(value, "dtype"):
        return spec
    value = np.asarray(value)
    if value.size == 0 or value.dtype.kind not in "fiub":
        return spec
    if value.dtype.kind == "f":
        finite = value[np.isfinite(value)]
        extra = "" if finite.size == value.size else f", non-finite: {_describe_bad(value)}"
        if finite.size == 0:
            return f"{spec} no finite values{extra}"
        return f"{spec} range [{finite.min():.6g}, {finite.max():.6g}]{extra}"
    return f"{spec} range [{value.min()}, {value.max()}]"


# -- switching it on and off ----------------------------------------------------------------------
def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """Check every op's outputs (forward and backward pass) for NaN/Inf in this thread. The
    error's file paths are cut to path_length_limit characters (None: whole), as TensorFlow
    cuts them; it names the one innermost frame of user code, within any stack_height_limit
    of at least 1 (TensorFlow's bound on the frames it prints)."""
    for what, limit in (("stack_height_limit", stack_height_limit),
                        ("path_length_limit", path_length_limit)):
        if limit is not None and not isinstance(limit, int):
            raise TypeError(f"enable_check_numerics: {what} must be an int or None, got "
                            f"{limit!r}.")
    _PATH_LENGTH_LIMIT[0] = path_length_limit
    if _check_op not in state.observers:
        state.observers = state.observers + (_check_op,)


def disable_check_numerics():
    state.observers = tuple(h for h in state.observers if h is not _check_op)


def check_numerics_enabled():
    return _check_op in state.observers


# -- the CheckNumerics op ---------------------------------------------------------------------
def _check_kernel(x, message):
    if x.dtype.kind in "fc" and not np.isfinite(x).all():
        kinds = " and ".join(k for k, bad in (("NaN", np.isnan(x).any()),
                                                ("Inf", np.isinf(x).any())) if bad)
        raise InvalidArgumentError(f"{message} : Tensor had {kinds} values "
                                   f"({_describe_bad(x)})")
    return x


def _check_grad(op, grad):
    return check_numerics(grad, f"{op.get_attr('message')} (gradient)")


def _check_rule(x, message):
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"expects a floating-point tensor, got {x.dtype.name}.")
    return shape_rules.same(x)


CHECK_NUMERICS = defop("CheckNumerics", _check_kernel, shape=_check_rule, grad=_check_grad,
                       returns_view=True, raw=lambda tensor, message, name=None: check_numerics(
                           tensor, message, name))


def check_numerics(tensor, message, name=None):
    """`tensor` unchanged; raises InvalidArgumentError ("message : Tensor had NaN values") when
    it holds NaN or Inf. Its gradient is checked the same way."""
    tensor = convert_to_tensor(tensor)
    if not tensor.dtype.is_floating:
        raise TypeError(f"check_numerics expects a floating-point tensor, got "
                        f"{tensor.dtype.name}.")
    return execute(CHECK_NUMERICS, (tensor,), {"message": str(message)}, name)
