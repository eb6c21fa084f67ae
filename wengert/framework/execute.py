"""Running an op: the single entry point every op call goes through.

`execute(op_def, inputs, attrs)` does one of two things:
- in a graph context, adds a node to the graph (the graph runs the shape rule);
- eagerly, checks the inputs' dtypes against TensorFlow's op definition (op_dtype_constraints.py:
  one set membership per constrained input when they pass), runs the NumPy kernel (with
  NumPy's floating-point warnings off, as TensorFlow is silent: float_errors.py), wraps the result in Tensors, and offers the op to every active
  tape: a tape records it when one of the inputs is a tensor it watches, and then watches the
  outputs too. That is the Wengert list: a record of each op in execution order.

This is the hot path of the whole library, so it is written flat: no per-call allocation beyond
the output tensors and (when a tape records) one Operation.
"""

from .context import state
from .errors import InvalidArgumentError, OpError, ResourceExhaustedError
from .float_errors import IGNORE, reset_errstate, set_errstate
from .op_dtype_constraints import check_input_dtypes
from .operation import Operation
from .tensor import Tensor, convert_to_tensor, to_array
from .tensor_conversion_registry import REGISTERED, conversion_functions

__all__ = ["execute", "binary_operands", "named_operands", "record_op", "record_graph_op",
           "out_of_memory"]

_NO_ATTRS = {}
_new = object.__new__


def execute(op_def, inputs, attrs=_NO_ATTRS, name=None):
    """Run (or, in a graph, add) one op; returns a Tensor, or a tuple for multi-output ops."""
    st = state
    if st.graph is not None:
        return st.graph.create_op(op_def, inputs, attrs, name)
    if st.profiler is not None:  # it times this op and runs it through here again
        return st.profiler.run_op(op_def, inputs, attrs, name)
    refused = op_def.refused  # TensorFlow's dtype constraints (op_dtype_constraints.py)
    if refused is not None and inputs:
        first = inputs[0]._value.dtype
        if first in refused:
            check_input_dtypes(op_def, inputs, name)
        rest = op_def.dtype_rest
        if rest is None:  # the common case: input 1, if given, shares input 0's attribute
            if len(inputs) > 1 and inputs[1]._value.dtype is not first:
                check_input_dtypes(op_def, inputs, name)
        else:
            for i, refused, same in rest:
                if i < len(inputs):
                    dtype = inputs[i]._value.dtype
                    if dtype in refused or (same >= 0 and dtype is not inputs[same]._value.dtype):
                        check_input_dtypes(op_def, inputs, name)
    token = set_errstate(IGNORE)
    try:
        if attrs:
            out = (op_def.kernel(inputs[0]._value, **attrs) if len(inputs) == 1 else
                   op_def.kernel(*[t._value for t in inputs], **attrs))
        elif len(inputs) == 2:
            out = op_def.kernel(inputs[0]._value, inputs[1]._value)
        elif len(inputs) == 1:
            out = op_def.kernel(inputs[0]._value)
        else:
            out = op_def.kernel(*[t._value for t in inputs])
    except OpError:
        raise
    except (ValueError, TypeError, IndexError, FloatingPointError) as exc:  # AxisError too
        raise explain_failure(op_def, inputs, attrs, name, exc) from None
    except MemoryError as exc:  # NumPy refuses before allocating: nothing changed
        raise out_of_memory(op_def, inputs, name, exc) from None
    finally:
        reset_errstate(token)
    # Kernels return NumPy arrays or NumPy scalars (0-d results); both serve as a tensor's value.
    if op_def.num_outputs == 1:
        result = _new(Tensor)  # Tensor(out), without the __init__ call (the hot path)
        result._value = out
        result._op = None
        result._value_index = 0
        outputs = (result,)
    else:
        outputs = tuple(Tensor(v, None, i) for i, v in enumerate(out))
        result = outputs
    if st.tapes:
        record_op(st.tapes, op_def, inputs, outputs, attrs, name)
    if st.observers:
        for hook in st.observers:  # forward-mode accumulators, numeric checks
            hook(op_def, inputs, outputs, attrs, name)
    return result


def record_op(tapes, op_def, inputs, outputs, attrs, name=None):
    """Append the op to each tape that watches one of its inputs; returns the record or None."""
    if len(tapes) == 1:  # the common case, written flat
        watched = tapes[0]._watched
        for t in inputs:
            if id(t) in watched:
                break
        else:
            return None
        op = Operation(op_def, tuple(inputs), outputs, attrs, name)
        tapes[0]._records.append(op)
        for t in outputs:
            t._op = op
            watched.add(id(t))
        return op
    op = None
    for tape in tapes:
        watched = tape._watched
        for t in inputs:
            if id(t) in watched:
                break
        else:
            continue
        if op is None:
            op = Operation(op_def, tuple(inputs), outputs, attrs, name)
            for t in outputs:
                t._op = op
        else:
            op.shared = True
        tape._records.append(op)
        for t in outputs:
            watched.add(id(t))
    return op


def record_graph_op(tapes, op):
    """Record an op a graph built (it already exists) on each tape watching one of its inputs:
    a tape inside a traced function records symbolic ops, and its gradient builds nodes."""
    for tape in tapes:
        watched = tape._watched
        for t in op.inputs:
            if id(t) in watched:
                tape._records.append(op)
                for out in op.outputs:
                    watched.add(id(out))
                break


def out_of_memory(op_def, inputs, name, exc):
    """TensorFlow's ResourceExhaustedError for a kernel whose result does not fit in memory,
    naming the op, its inputs and what NumPy was asked to allocate."""
    label = f"{op_def.type}" + (f" (op '{name}')" if name else "")
    shapes = ", ".join(str(getattr(t, "shape", "?")) for t in inputs)
    return ResourceExhaustedError(f"{label}: OOM when allocating the result for inputs of "
                                  f"shapes [{shapes}]: {exc}. Use smaller sizes.")


def explain_failure(op_def, inputs, attrs, name, exc):
    """Turn a kernel's exception into an InvalidArgumentError naming the op, shapes and dtypes.

    The op's shape rule is asked first: it knows the op's contract and says what to change."""
    label = f"{op_def.type}" + (f" (op '{name}')" if name else "")
    if op_def.shape is not None:
        try:
            op_def.shape(*inputs, **attrs)
        except OpError as err:
            return type(err)(f"{label}: {err.message}")
        except Exception:  # noqa: BLE001 - fall through to the generic message
            pass
    shapes = ", ".join(str(t.shape) for t in inputs)
    kinds = ", ".join(t.dtype.name for t in inputs)
    attr_text = f", attributes {attrs}" if attrs else ""
    return InvalidArgumentError(f"{label} failed on inputs of shapes [{shapes}] and dtypes "
                                f"[{kinds}]{attr_text}: {exc}")


def binary_operands(x, y, op_type, names=("Const", "Const")):
    """Tensors for a binary op's operands, following TensorFlow's dtype rules.

    Two tensors must share a dtype (no silent promotion). A non-tensor operand (Python number,
    list, NumPy array) takes the other operand's dtype; in a graph it becomes a constant named
    `names[0]` or `names[1]` (in the current name scope)."""
    tx, ty = type(x) is Tensor, type(y) is Tensor  # is_eager_tensor, inline: every binary op
    if tx and ty:
        if x._value.dtype is not y._value.dtype and x._value.dtype != y._value.dtype:
            raise dtype_mismatch(op_type, x, y)
        return x, y
    if not tx and hasattr(x, "_as_tensor"):  # read variables first, left to right,
        x, tx = x._as_tensor(None), True       # so `2 * variable` takes the variable's dtype
    if not ty and hasattr(y, "_as_tensor"):
        y, ty = y._as_tensor(None), True
    x = _as_operand(x, y if ty or isinstance(y, Tensor) else None, op_type, names[0])
    y = _as_operand(y, x, op_type, names[1])
    if x.dtype is not y.dtype:
        raise dtype_mismatch(op_type, x, y)
    return x, y


def named_operands(x, y, op_type, name, default=None, args=("x", "y")):
    """(x, y, the name to give the op): binary_operands, with the operands named as TensorFlow 1
    names them in a graph. There an op function opens its name scope (`name`, else `default`,
    else the op type: "mul", "mul_1", ... uniquified as the op's own name is) and converts its
    operands inside it, so a constant operand is `<scope>/<argument>` (`x * 2.0` makes `mul/y`
    and `mul`, `2.0 + x` makes `add/x`, `tf.matmul(x, [[1.0]])` `MatMul/b`) and the op takes
    the scope's name (returned ending in "/", which names it as it is). Variables are read
    before the scope opens (their reads keep their own names); eagerly nothing is named and
    `name` comes back unchanged."""
    graph = state.graph
    if graph is None:
        return (*binary_operands(x, y, op_type), name)
    if not isinstance(x, Tensor) and hasattr(x, "_as_tensor"):
        x = x._as_tensor(None)
    if not isinstance(y, Tensor) and hasattr(y, "_as_tensor"):
        y = y._as_tensor(None)
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        return (*binary_operands(x, y, op_type), name or default)
    with graph.name_scope(name or default or op_type) as scope:
        x, y = binary_operands(x, y, op_type, args)
    return x, y, scope


def _as_operand(value, other, op_type, name="Const"):
    if isinstance(value, Tensor):
        return value
    as_tensor = getattr(value, "_as_tensor", None)
    if as_tensor is not None:
        return as_tensor(None)
    if other is None:
        return convert_to_tensor(value, name=name)
    if REGISTERED[0] and conversion_functions(type(value)):  # a user's registered conversion
        return convert_to_tensor(value, dtype_hint=other.dtype, name=name)
    dtype = other.dtype
    try:
        array = to_array(value, dtype)
    except TypeError as err:
        raise TypeError(f"{op_type}: {err}") from None
    if state.graph is not None:
        return state.graph.constant(array, name)
    return Tensor(array)


def dtype_mismatch(op_type, x, y):
    return InvalidArgumentError(
        f"{op_type}: operands have different dtypes, {x.dtype.name} (shape {x.shape}) and "
        f"{y.dtype.name} (shape {y.shape}). wengert does not promote dtypes implicitly; use "
        f"cast(x, {y.dtype.name}) or cast(y, {x.dtype.name}) to make them agree.")
