"""The op registry: every op type declared once (`OpDef`), and the gradient functions for op types.

An op type is one `OpDef`, declared by `defop` in the file of its family (ops/). It is the
only record of the op: every part of wengert that needs a fact about an op type (the executor,
the vectorized-Jacobian pass, the sparse-gradient path, forward mode, exporters) asks the OpDef,
and nothing outside the family file keeps a table keyed by the op's type name. Its fields:

    kernel(*arrays, **attrs)   the NumPy computation: an ndarray, or a tuple for several outputs
    shape(*inputs, **attrs)    (TensorShape, DType) per output; inputs carry .shape and .dtype
    jvp                        forward-mode rule jvp(primals, tangents, outputs, **attrs), or a
                               marker: `linear`, `linear_in(i, ...)`, `multilinear` (below)
    num_outputs                outputs per op (ops with a variable count say so in their kernel)
    batch                      how the vectorized Jacobian batches the gradient rule:
                               None        no batched form (one reverse pass per row);
                               "safe"      the rule is right as written for gradients with extra
                                           leading dimensions (elementwise broadcasting);
                               "negative_axis"  right once its `axis` attribute counts from the
                                           end (softmax-like rules);
                               fn(op, *grads)  a batched variant of the rule, beside the rule,
                                           used when `batch_accepts(op)` is None or says True
    vmap                       optional fn(op, inputs, batched) -> the op's outputs (a tuple)
                               over a batch of examples, for vectorized_map: `inputs` carry a
                               leading example axis where `batched` says so. Written in
                               wengert ops, beside the op; None from it (or no rule) loops
    stateful                   the kernel reads or writes variables: executors hand it the
                               variable store as its first argument
    pure                       equal inputs always give equal outputs and running it changes
                               nothing (random ops, placeholders, reads, prints are impure):
                               executors may merge duplicates and fold constants only if pure
    passes_sparse              the gradient rule hands an IndexedSlices gradient on unchanged
                               (a variable read, an identity), so it stays sparse through the op
    returns_view               the kernel's result may be (a view of) an input's array, or an
                               array it was given as an attribute (reshape, transpose, slicing,
                               identity, a constant, a variable read, control flow passing a
                               value through): executors never write into it, nor into the
                               input while it lives (tests/test_returns_view.py fails for an
                               op whose kernel shares memory with an input undeclared)
    reads_shape_only           the kernel reads only its inputs' shapes and dtypes, never their
                               values (shape, size, rank): static shapes alone evaluate it
                               (framework/static_value.py folds it while a graph is built)
    partial_value              optional fn(op, *input_values) -> what is known of the op's integer
                               scalar or vector output while a graph is built, from what is
                               known of its inputs': an int or None (a scalar), a list of ints
                               and None (a vector), or None (nothing, not even the length).
                               Shape inference reads shapes computed in graphs with it
                               (static_value.partial_value: TensorFlow's constant_value_as_shape
                               over Shape, Pack, ConcatV2, StridedSlice...); ops that read only
                               shapes get None for their inputs
    unread                     positions of inputs the kernel never reads: inputs only so that
                               the op's own derivatives can use them (a fused gradient op's
                               forward input, which its gradient recomputes from). Compiled
                               plans hand the kernel None there, so the array can be freed at
                               its last real use instead of living until this op runs
    inplace                    optional kernel(*arrays, out=array, **attrs) computing what
                               `kernel` computes into `out`, one of its inputs of the result's
                               shape and dtype (right for any such input as `out`: only its
                               last step, one ufunc call, writes `out`). Executors use it for
                               large arrays when the plan's liveness shows the input dies at
                               this op and nothing else shares its buffer. A stateful op's
                               `inplace(store, var, value)` may change the variable's array
                               itself (the plan holds no other reference to it)
                               Defaults to the kernel itself when it is a one-output NumPy ufunc
                               (or a Python operator, whose ufunc it is: OPERATOR_UFUNCS)
    index_key                  optional fn(**attrs) -> a NumPy index such that the kernel is
                               `x[index]` (a slice): executors index directly
    onnx                       how the op lowers to ONNX (wengert/onnx): the name of the ONNX
                               operator it maps to one-to-one (same inputs, outputs and no
                               attributes), or a rule fn(ctx, op, *input_names) returning the
                               output names, built with ctx.node(...) / ctx.const(...); None means
                               it has no lowering and exporting a graph holding it fails naming it
    args                       TensorFlow's argument names for the op in `tf.raw_ops`, in
                               TensorFlow's order, when they are the op's inputs one to one
                               (`args=("x", "y")`: tf.raw_ops.AddV2(x=a, y=b) runs the op on
                               (a, b), the arguments sharing one dtype as TensorFlow's do)
    raw                        otherwise the function behind tf.raw_ops.<type>: TensorFlow's
                               arguments by TensorFlow's names and defaults (then `name=None`),
                               mapped onto the op's inputs and attributes or onto the public
                               function; its parameters are the op's `args`. An op with neither
                               is wengert's own (SumToShape, WhileHistoryGet) and is not in
                               tf.raw_ops. `defraw` declares a raw op TensorFlow has that
                               wengert runs as a composition of its ops, with no OpDef of its own
    tf_inputs                  TensorFlow's parameter names of the op's inputs, in the op's order,
                               when they are not TensorFlow's leading inputs in TensorFlow's order
                               (the dtype check reads TensorFlow's constraints by them)
    concurrent                 the kernel is costly on large inputs, changes nothing and spends
                               its time in NumPy loops that release the GIL (a histogram
                               summary): compiled plans start it on a worker thread as soon as
                               its inputs exist and take its result where the op stands
                               (runtime/inter_op.py), as TensorFlow's inter-op pool runs it
                               beside the rest of the step
    refused, dtype_rest        the dtype check's precomputed rule (op_dtype_constraints.py)

Gradient (VJP) rules live in a separate table keyed by op type, because users may add and override
them: `RegisterGradient("Mul")` adds one, `no_gradient("Shape")` says the op has no gradient (its
inputs get None), and a type absent from the table has no rule at all, which is an error
(`LookupError`) only when the reverse pass actually needs to go through such an op.

A gradient function is `fn(op, *grads)`: `op` is the forward op record (`op.inputs`,
`op.outputs`, `op.get_attr`, and `op.skip_input_indices`, the inputs whose gradient nobody needs
in this pass: `needs_grad(op, i)` asks), `grads` holds one incoming gradient per output, and it
returns one gradient (or None) per input: the vector-Jacobian product of the op.
"""

import importlib
import operator
import sys

import numpy as np

from .op_dtype_constraints import PendingRule

__all__ = ["OpDef", "defop", "RegisterGradient", "no_gradient", "NotDifferentiable",
           "get_gradient_function", "registered_op_types", "get_op_def", "linear", "linear_in",
           "multilinear", "needs_grad", "defraw", "raw_op_entry", "raw_op_functions"]

# Python's operators and the ufuncs they call on arrays (the kernels of AddV2, Sub, Mul, RealDiv).
OPERATOR_UFUNCS = {operator.add: np.add, operator.sub: np.subtract, operator.mul: np.multiply,
                   operator.truediv: np.true_divide}

_OP_DEFS = {}     # op type -> OpDef
_GRADIENTS = {}   # op type -> gradient function, or None for "not differentiable"
_COMPOSED_RAW = {}  # TensorFlow raw op type without an OpDef -> (function, declaring module)
_MISSING = object()
_BATCH_MARKERS = (None, "safe", "negative_axis")


class OpDef:
    """The declaration of one op type (see the module docstring for each field)."""

    __slots__ = ("type", "kernel", "shape", "jvp", "num_outputs", "module", "batch",
                 "batch_accepts", "vmap", "stateful", "pure", "passes_sparse", "returns_view", "inplace",
                 "onnx", "reads_shape_only", "index_key", "partial_value", "raw", "_args",
                 "unread", "tf_inputs", "refused", "dtype_rest", "concurrent")

    def __init__(self, op_type, kernel, shape=None, jvp=None, num_outputs=1, module=None, *,
                 batch=None, batch_accepts=None, vmap=None, stateful=False, pure=True,
                 passes_sparse=False, returns_view=False, inplace=None, onnx=None,
                 reads_shape_only=False, index_key=None, partial_value=None, args=None,
                 raw=None, unread=(), tf_inputs=None, concurrent=False):
        if batch not in _BATCH_MARKERS and not callable(batch):
            raise ValueError(f"OpDef {op_type}: batch must be None, 'safe', 'negative_axis' or "
                             f"a batched gradient function, got {batch!r}.")
        self.type = op_type
        self.module = module  # the module that declared it (wengert's own, or a user's)
        self.kernel = kernel
        self.shape = shape
        self.jvp = jvp
        self.num_outputs = num_outputs
        self.batch = batch
        self.batch_accepts = batch_accepts
        self.vmap = vmap
        self.stateful = stateful
        self.pure = pure and not stateful
        self.passes_sparse = passes_sparse
        self.returns_view = returns_view
        self.unread = tuple(unread)
        self.concurrent = concurrent and self.pure
        self.inplace = inplace if inplace is not None else _ufunc_form(kernel)
        if onnx is not None and not (isinstance(onnx, str) or callable(onnx)):
            raise ValueError(f"OpDef {op_type}: onnx must be an ONNX operator name or a "
                             f"lowering function, got {onnx!r}.")
        self.onnx = onnx
        self.reads_shape_only = reads_shape_only
        self.index_key = index_key
        self.partial_value = partial_value
        if args is not None and raw is not None:
            raise ValueError(f"OpDef {op_type}: give args= (TensorFlow's names of the op's "
                             "inputs) or raw= (a function of TensorFlow's arguments), not both.")
        if args is not None and (isinstance(args, str)
                                 or not all(isinstance(a, str) for a in args)):
            raise ValueError(f"OpDef {op_type}: args must be a tuple of TensorFlow's argument "
                             f"names, got {args!r}.")
        self._args = tuple(args) if args is not None else None
        self.raw = raw
        self.tf_inputs = tuple(tf_inputs) if tf_inputs is not None else None
        self.refused = PendingRule(self)  # compiled on first use (op_dtype_constraints.py)
        self.dtype_rest = ()

    @property
    def args(self):
        """TensorFlow's argument names of the op in tf.raw_ops (None: not a TensorFlow op)."""
        if self._args is None and self.raw is not None:
            self._args = raw_parameters(self.raw)
        return self._args

    @property
    def differentiable(self):
        return _GRADIENTS.get(self.type) is not None

    def __repr__(self):
        return f"<OpDef {self.type}>"


def _ufunc_form(kernel):
    """The kernel as a one-output ufunc (which writes into `out=`), or None."""
    ufunc = OPERATOR_UFUNCS.get(kernel, kernel)
    return ufunc if isinstance(ufunc, np.ufunc) and ufunc.nout == 1 else None


def defop(op_type, kernel, *, grad=_MISSING, shape=None, jvp=None, num_outputs=1, **fields):
    """Declare an op type; `fields` are the OpDef's (batch, stateful, pure, passes_sparse,
    returns_view, inplace, onnx...). `grad=None` marks it not differentiable; a function registers it."""
    if op_type in _OP_DEFS:
        raise KeyError(f"Op type {op_type!r} is already declared; op types must be unique.")
    op_def = OpDef(op_type, kernel, shape, jvp, num_outputs, _declaring_module(sys._getframe(1)),
                   **fields)
    _OP_DEFS[op_type] = op_def
    if grad is None:
        no_gradient(op_type)
    elif grad is not _MISSING:
        RegisterGradient(op_type)(grad)
    return op_def


def defraw(op_type, raw):
    """Declare tf.raw_ops.<op_type> for a TensorFlow op that wengert runs as a composition of its
    own ops (TensorFlow's Pad, run as PadV2 with zeros): `raw` takes TensorFlow's arguments, as
    an OpDef's `raw` does."""
    if op_type in _OP_DEFS or op_type in _COMPOSED_RAW:
        raise KeyError(f"Op type {op_type!r} is already declared; op types must be unique.")
    _COMPOSED_RAW[op_type] = (raw, _declaring_module(sys._getframe(1)))


def raw_parameters(raw):
    """TensorFlow's argument names that a raw-op function takes (all but `name`)."""
    code = getattr(raw, "__code__", None)
    if code is None:
        raise TypeError(f"a raw op's function must be a plain function or lambda, got {raw!r}.")
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return tuple(n for n in names if n != "name")


def raw_op_entry(op_type):
    """(OpDef or None, function or None) behind tf.raw_ops.<op_type> (see raw_op_functions),
    or None when op_type is not a TensorFlow op wengert declares."""
    if op_type not in _OP_DEFS and op_type not in _COMPOSED_RAW:
        _load_every_family()
    op_def = _OP_DEFS.get(op_type)
    if op_def is not None:
        return (op_def, op_def.raw) if op_def._args is not None or op_def.raw else None
    composed = _COMPOSED_RAW.get(op_type)
    return None if composed is None else (None, composed[0])


def raw_op_functions():
    """op type -> (OpDef or None, function or None) for every TensorFlow op in tf.raw_ops: each
    OpDef with TensorFlow's argument names (its `raw`, or None: the op on its `args`), and each
    composition `defraw` declared (no OpDef)."""
    table = {t: (d, d.raw) for t, d in _OP_DEFS.items() if d._args is not None or d.raw}
    table.update((t, (None, raw)) for t, (raw, _) in _COMPOSED_RAW.items())
    return table


def _declaring_module(frame):
    """The module whose code declares an op: the nearest module-level code up the stack from
    `frame` (defop's caller), passing over wengert's functions that declare ops for their caller
    (elementwise.unary, a family's wrapper); the first function of anyone else's is the
    declaring one (a user's op, made at run time)."""
    caller = frame.f_globals.get("__name__")
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if frame.f_code.co_name == "<module>" or not name.startswith("wengert."):
            return name
        frame = frame.f_back
    return caller


# -- forward-mode markers: defop(..., jvp=linear) and friends ---------------------------------------
# Forward mode (autodiff/forward.py) applies these itself; they are never called.
def linear(primals, tangents, outputs, **attrs):
    """Marker rule (`defop(..., jvp=linear)`): the op is linear in its floating-point inputs, so
    its JVP is the op applied to the tangents."""
    raise TypeError("`linear` is a marker for defop(jvp=...); the accumulator applies the op "
                    "itself to the tangents.")


class linear_in:  # noqa: N801 (a marker used like `linear`)
    """Marker rule (`defop(..., jvp=linear_in(0))`): linear in the listed inputs; the other
    inputs are references (shapes, indices) that keep their primal values."""

    __slots__ = ("indices",)

    def __init__(self, *indices):
        self.indices = indices

    def __repr__(self):
        return f"linear_in{self.indices}"


def multilinear(primals, tangents, outputs, **attrs):
    """Marker rule: the op is linear in each floating-point input separately (product rule)."""
    raise TypeError("`multilinear` is a marker for defop(jvp=...).")


def needs_grad(op, i):
    """Whether the reverse pass wants a gradient for input `i` of `op` (a rule may skip the
    work for the others; their gradient is ignored)."""
    return i not in op.skip_input_indices


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


# The op families `import wengert` leaves for their first use (tf.compat.v1's, TF 1's queues and
# readers, ...). A lookup of an op type named in a file (a GraphDef, a SavedModel) that finds
# nothing loads them all, once, before it concludes that wengert lacks the op. They are named,
# not imported: they live in the layers above this one.
_EVERY_FAMILY = ("wengert.raw_ops", "wengert.compat.v1")
_loaded_every_family = []


def _load_every_family():
    if not _loaded_every_family:
        _loaded_every_family.append(True)
        for name in _EVERY_FAMILY:
            importlib.import_module(name)


def get_op_def(op_type):
    op_def = _OP_DEFS.get(op_type)
    if op_def is None:
        _load_every_family()
        op_def = _OP_DEFS[op_type]
    return op_def
