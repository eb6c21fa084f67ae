"""The op registry: every op type declared once, and the gradient functions for op types.

An op type is an `OpDef`: its NumPy kernel, its shape/dtype rule, its forward-mode (JVP) rule,
its output count, and whether its gradient rule is batch-safe (`batchable`). Gradient (VJP) rules
live in a separate table keyed by op type, because users may add and override them:
`RegisterGradient("Mul")` adds one, `no_gradient("Shape")` says the op has no gradient (its inputs
get None), and a type absent from the table has no rule at all, which is an error (`LookupError`)
only when the reverse pass actually needs to go through such an op.

`batchable=True` declares that the op's registered rule is also right when every incoming gradient
carries extra leading (batch) dimensions, [B..., *output.shape], as the vectorized Jacobian's
reverse pass sends them (see autodiff/batched.py): typically because the rule combines the
gradient with forward values only by NumPy-broadcast elementwise ops, which align trailing axes.

A gradient function is `fn(op, *grads)`: `op` is the forward op record (`op.inputs`,
`op.outputs`, `op.get_attr`), `grads` holds one incoming gradient per output, and it returns one
gradient (or None) per input: the vector-Jacobian product of the op.
"""

import sys

__all__ = ["OpDef", "defop", "RegisterGradient", "no_gradient", "NotDifferentiable",
           "get_gradient_function", "registered_op_types", "get_op_def"]

_OP_DEFS = {}     # op type -> OpDef
_GRADIENTS = {}   # op type -> gradient function, or None for "not differentiable"
_MISSING = object()


class OpDef:
    """The declaration of one op type: kernel, shape rule, JVP rule, number of outputs.

    kernel(*arrays, **attrs) -> ndarray, or a tuple of ndarrays when num_outputs > 1.
    shape(*inputs, **attrs) -> (TensorShape, DType), or a list of them; inputs carry .shape and
        .dtype. Eager mode runs it only to explain a failed kernel; graph mode runs it per node.
    jvp(primals, tangents, outputs, **attrs) -> tangent of each output (forward mode).
    batchable: the gradient rule is also correct for gradients with leading batch dimensions.
    """

    __slots__ = ("type", "kernel", "shape", "jvp", "num_outputs", "module", "batchable",
                 "__dict__")

    def __init__(self, op_type, kernel, shape, jvp, num_outputs, module=None, batchable=False):
        self.type = op_type
        self.module = module  # the module that declared it (wengert's own, or a user's)
        self.kernel = kernel
        self.shape = shape
        self.jvp = jvp
        self.num_outputs = num_outputs
        self.batchable = batchable

    @property
    def differentiable(self):
        return _GRADIENTS.get(self.type) is not None

    def __repr__(self):
        return f"<OpDef {self.type}>"


def defop(op_type, kernel, *, grad=_MISSING, shape=None, jvp=None, num_outputs=1,
          batchable=False):
    """Declare an op type. `grad=None` marks it not differentiable; a function registers it.
    `batchable=True`: that function is batch-safe (see the module docstring)."""
    if op_type in _OP_DEFS:
        raise KeyError(f"Op type {op_type!r} is already declared; op types must be unique.")
    op_def = OpDef(op_type, kernel, shape, jvp, num_outputs,
                   sys._getframe(1).f_globals.get("__name__"), batchable)
    _OP_DEFS[op_type] = op_def
    if grad is None:
        no_gradient(op_type)
    elif grad is not _MISSING:
        RegisterGradient(op_type)(grad)
    return op_def


class RegisterGradient:
    """Decorator registering `fn(op, *grads)` as the gradient of op type `op_type`.

        @RegisterGradient("Square")
        def _square_grad(op, grad):
            return grad * 2.0 * op.inputs[0]

    Registering a second function for one name is an error; to replace a rule for some ops, register
    it under a new name and use `Graph.gradient_override_map({"Square": "MySquare"})`.
    """

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError(f"RegisterGradient expects an op type name (str), got {op_type!r}.")
        self._op_type = op_type

    def __call__(self, fn):
        if self._op_type in _GRADIENTS:
            raise KeyError(f"Registering two gradient functions for op type {self._op_type!r}. "
                           "Register yours under another name and select it with "
                           "Graph.gradient_override_map.")
        _GRADIENTS[self._op_type] = fn
        return fn


def no_gradient(op_type):
    """Declare that ops of `op_type` are not differentiable: their inputs receive None."""
    if not isinstance(op_type, str):
        raise TypeError(f"no_gradient expects an op type name (str), got {op_type!r}.")
    if _GRADIENTS.get(op_type, None) is not None:
        raise KeyError(f"Op type {op_type!r} already has a gradient function registered.")
    _GRADIENTS[op_type] = None


NotDifferentiable = no_gradient


def get_gradient_function(op):
    """The gradient function for `op` (honouring a graph's override map); None if not
    differentiable; LookupError naming the op and its type if no rule was ever registered."""
    op_type = op.type
    overrides = getattr(op, "gradient_override", None)
    if overrides is not None:
        op_type = overrides
    try:
        return _GRADIENTS[op_type]
    except KeyError:
        raise LookupError(
            f"No gradient defined for operation '{op.name}' (op type: {op_type}). Register one "
            f"with @RegisterGradient({op_type!r}), mark it with no_gradient({op_type!r}) if it "
            "has none, or wrap the computation in stop_gradient.") from None


def registered_op_types(package=None):
    """All declared op types, sorted; only those declared under `package` if given."""
    return sorted(t for t, d in _OP_DEFS.items()
                  if package is None or (d.module or "").startswith(package))


def get_op_def(op_type):
    return _OP_DEFS[op_type]
