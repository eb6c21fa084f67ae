"""tf.raw_ops, generated from the registry: each TensorFlow op wengert declares, under its op type
name, called with TensorFlow's keyword arguments and no others.

The OpDef is the one record (framework/registry.py). An op whose TensorFlow arguments are its
inputs one to one declares their names, `args=("x", "y")`: its raw op converts them and runs the
op. An op whose TensorFlow arguments differ from its inputs and attributes (TensorFlow's Sum
takes `axis` as a tensor and `keep_dims`; wengert's takes `axis` and `keepdims` as attributes)
declares `raw=`, a function in its family file taking TensorFlow's arguments by TensorFlow's
names and defaults; `defraw` adds the few TensorFlow ops wengert runs as compositions. Ops with
neither are wengert's own (SumToShape, MulSum) and are not raw ops.

A raw op checks its call before running anything: keyword arguments only (TensorFlow refuses
positional ones), each of TensorFlow's names known, every argument without a default given, and
an optional `name`. Inputs declared by `args` share one dtype, as an op's inputs of one type
attribute do in TensorFlow (`T`): tensors keep theirs, and a number, list or array takes the
first tensor's dtype (or, with no tensor among them, the first argument's own). A tensor passed
to an input TensorFlow gives one fixed dtype (RFFT's int32 fft_length) must have it, also where
wengert takes that argument as an attribute: TensorFlow's error otherwise
(op_dtype_constraints.check_fixed_argument), before anything runs; a number, list or NumPy
array passed there is converted to that dtype as TensorFlow converts it (`fixed_argument`:
tf.raw_ops.RFFT(fft_length=[8]) takes int32, SetSize(set_indices=[[0, 0]]) int64; a float list
for an int32 input is TensorFlow's TypeError). A resource handle argument (a variable's, a
table's) takes wengert's object for the resource; anything else is TensorFlow's error naming
the op and the input (raw_op_handles.py).
"""
import inspect

from .context import state
from .execute import execute
from .op_dtype_constraints import fixed_argument, fixed_inputs
from .raw_op_handles import check_handle_argument, handle_inputs, wrong_handle
from .registry import raw_op_entry, raw_op_functions
from .tensor import Tensor, convert_to_tensor

__all__ = ["raw_op", "raw_op_names", "module_getattr", "module_dir"]

_BUILT = {}  # op type -> (the registry's entry, its generated function)


def raw_op_names():
    """Every op type in tf.raw_ops, sorted."""
    return sorted(raw_op_functions())


def raw_op(op_type):
    """The function tf.raw_ops.<op_type> (built on first use); AttributeError for an op type
    that is not TensorFlow's (wengert's own ops) or not declared."""
    entry = raw_op_entry(op_type)
    if entry is None:
        raise AttributeError(f"module 'wengert.raw_ops' has no op {op_type!r}: it is not a "
                             "TensorFlow op wengert implements.")
    built = _BUILT.get(op_type)
    if built is None or built[0] != entry:
        built = _BUILT[op_type] = (entry, _build(op_type, *entry))
    return built[1]


def module_getattr(name):
    """`tf.raw_ops.<name>` (a namespace module's `__getattr__`)."""
    if name.startswith("__"):
        raise AttributeError(name)
    return raw_op(name)


def module_dir():
    """The namespace's names (a namespace module's `__dir__`)."""
    return raw_op_names()


def _build(op_type, op_def, raw):
    if raw is None:
        names, defaults = op_def.args, {}
        run = _direct(op_def)
    else:
        params = inspect.signature(raw).parameters
        names = tuple(n for n in params if n != "name")
        defaults = {n: p.default for n, p in params.items()
                    if n != "name" and p.default is not p.empty}
        run = raw
    required = [n for n in names if n not in defaults]
    fixed = [n for n in names if n in fixed_inputs(op_type)]
    handles = [n for n in names if n in handle_inputs(op_type)]
    allowed = set(names) | {"name"}

    def call(*args, **kwargs):
        if args:
            raise TypeError(f"raw_ops.{op_type} only accepts keyword arguments (possible keys: "
                            f"{list(names) + ['name']}); got {len(args)} positional.")
        unknown = [k for k in kwargs if k not in allowed]
        if unknown:
            raise TypeError(f"raw_ops.{op_type} got unexpected keyword arguments {unknown}; it "
                            f"takes TensorFlow's arguments {list(names)} and name.")
        missing = [n for n in required if n not in kwargs]
        if missing:
            raise TypeError(f"raw_ops.{op_type} is missing required arguments {missing}; it "
                            f"takes TensorFlow's arguments {list(names)} (required: "
                            f"{required}) and name.")
        graph = state.graph is not None
        for n in fixed:
            if n in kwargs:
                kwargs[n] = fixed_argument(op_type, n, kwargs[n], graph)
        for n in handles:
            if n in kwargs:
                check_handle_argument(op_type, n, kwargs[n], graph)
        if not handles:
            return run(**kwargs)
        try:
            return run(**kwargs)
        except AttributeError as err:  # a handle object of another kind of resource
            refused = wrong_handle(op_type, err, kwargs)
            if refused is None:
                raise
            raise refused from None

    call.__name__ = call.__qualname__ = op_type
    call.__doc__ = (f"tf.raw_ops.{op_type}({', '.join(names)}, name=None): TensorFlow's "
                    f"{op_type}, keyword arguments only.")
    call.__signature__ = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY,
                           default=defaults.get(n, inspect.Parameter.empty)) for n in names]
        + [inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY, default=None)])
    return call


def _direct(op_def):
    """The raw op of an OpDef whose TensorFlow arguments are its inputs, in order."""
    names = op_def.args

    def run(name=None, **kwargs):
        return execute(op_def, _operands([kwargs[n] for n in names]), {}, name)
    return run


def _operands(values):
    """Tensors for inputs sharing one dtype (see the module docstring)."""
    tensors = [v if isinstance(v, Tensor) else
               v._as_tensor(None) if hasattr(v, "_as_tensor") else None for v in values]
    dtype = next((t.dtype for t in tensors if t is not None), None)
    out = []
    for tensor, value in zip(tensors, values):
        if tensor is None:
            tensor = convert_to_tensor(value, dtype)
            dtype = tensor.dtype if dtype is None else dtype
        out.append(tensor)
    return tuple(out)
