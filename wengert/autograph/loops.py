"""The runtime of converted `while` and `for` loops.

`while_stmt(test, body, get_state, set_state, names, opts)` evaluates the test once: a Python
value runs a Python loop (which turns into a graph loop from the current state if the test ever
becomes a graph tensor); a graph tensor builds one `while_loop` whose loop variables are the
state, so the body is traced once with placeholders for them:

    cond(*vars):  set_state(vars); return test()
    body(*vars):  set_state(vars); body(); return get_state()

checking after the one traced iteration that each variable kept its dtype and a shape its
invariant allows, with the user's names (`set_loop_options(shape_invariants=[(x, shape)])`
relaxes a shape). A variable that is undefined (or None) before the loop is found by running
the body once aside: it starts as zeros of the shape it gets, and the loop must run at least
once (checked when the graph runs), as in TensorFlow. A `return` inside the loop makes the
return value such a variable, without the check (it matters only once `do_return` is set).

`for_stmt(iterated, extra_test, body, ...)` picks by what is iterated:
- a graph tensor: a while_loop over its first axis (index i, element iterated[i]); the result of
  `tf.range` (a Range op) is iterated without building the range, by counting from start by
  delta;
- a dataset or a dataset iterator inside a traced function: a while_loop over
  `get_next_as_optional()`, the element and "has a value" carried as loop variables, so the
  whole epoch runs as one op;
- anything else (lists, Python ranges, eager tensors and datasets): a Python loop, unrolled while
  tracing. If a `break` or `return` under a tensor condition makes the extra test a graph
  tensor, each later iteration runs under a cond on it.
`extra_test` (from lowering.py) is what must hold before an iteration: not break_, not
do_return.
"""
import functools

from ..framework.context import state
from ..framework.tensor import Tensor, constant, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from ..control_flow.subgraphs import trace
from ..control_flow.while_loop import while_loop
from ..ops import creation_ops, indexing_ops, math_ops
from ..ops.io.checks import Assert
from ..ops.io.tensor_arrays import TensorArray, as_flows
from ..util import nest
from .conditionals import PROBING, condition, if_stmt, is_graph_tensor
from .undefined import Undefined, UndefinedReturnValue, user_location

__all__ = ["while_stmt", "for_stmt"]


# -- while ----------------------------------------------------------------------------------------
def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """A converted `while` loop (see the module docstring)."""
    value = test()
    while True:
        if is_graph_tensor(value):
            _tf_while(test, body, get_state, set_state, symbol_names, opts, user_location())
            return
        if not value:
            return
        body()
        value = test()


def _tf_while(test, body, get_state, set_state, names, opts, where):
    init = tuple(get_state())
    if not names:  # while_loop needs a loop variable
        init, names = (constant(0),), ("<dummy>",)
        get_state, set_state = (lambda inner: (lambda: (constant(0),) + tuple(inner())))(
            get_state), (lambda inner: (lambda values: inner(values[1:])))(set_state)
    invariants = _invariants(opts, init)
    init, invariants, first = _fill_undefined(body, get_state, set_state, init, names,
                                              invariants, where)
    entry = [_entry_specs(name, value, where) for name, value in zip(names, init)]
    count = 1 if first else 0

    def loop_test(*values):
        set_state(values[count:])
        return condition(test(), "while loop", where)

    def loop_body(*values):
        set_state(values[count:])
        body()
        new = tuple(get_state())
        _check_iteration(names, entry, invariants, new, where)
        return ((constant(True),) if first else ()) + new

    loop_vars = ((constant(False),) if first else ()) + init
    shape_invariants = _packed_invariants(loop_vars, ([[None]] if first else []) + invariants)
    out = while_loop(loop_test, loop_body, loop_vars, shape_invariants=shape_invariants,
                     maximum_iterations=opts.get("maximum_iterations"))
    out = tuple(out) if isinstance(out, (list, tuple)) else (out,)
    if first:
        missing = ", ".join(f"'{n}'" for n in first)
        Assert(out[0], [f"The loop{where} must run at least once to define {missing}, "
                        "which no code before the loop defines."])
        out = out[1:]
    set_state(out)


def _invariants(opts, init):
    """Per state value, one shape invariant (or None) per leaf (set_loop_options names the
    values whose shapes may change: matched by identity with the values before the loop)."""
    given = {id(value): TensorShape(shape) for value, shape in opts.get("shape_invariants", ())}
    return [[given.get(id(leaf)) for leaf in nest.flatten(value)] for value in init]


def _packed_invariants(init, invariants):
    """The invariants in the structure of the loop variables (for while_loop), or None."""
    if not any(i is not None for leaves in invariants for i in leaves):
        return None
    return tuple(nest.pack_sequence_as(value, leaves) if nest.is_nested(value) else leaves[0]
                 for value, leaves in zip(init, invariants))


def _fill_undefined(body, get_state, set_state, init, names, invariants, where):
    """Initial values for state that is undefined (or None) before the loop, from one run of the
    body aside; returns (init, invariants, the names that need one iteration)."""
    missing = [k for k, v in enumerate(init) if v is None or isinstance(
        v, (Undefined, UndefinedReturnValue))]
    if not missing:
        return init, invariants, ()

    def probe():
        set_state(init)
        body()
        return tuple(get_state())
    PROBING[0] += 1
    try:
        _, after = trace("while_probe", probe, [], state.graph)
    finally:
        PROBING[0] -= 1
    init, invariants, first = list(init), list(invariants), []
    for k in missing:
        value = after[k]
        is_return_value = isinstance(init[k], UndefinedReturnValue)
        if value is None or isinstance(value, (Undefined, UndefinedReturnValue)):
            if is_return_value:
                raise NotImplementedError(
                    f"A return statement inside this TensorFlow loop{where} returns no value "
                    "the loop can carry; return a tensor, or move the return after the loop.")
            raise ValueError(f"'{names[k]}' must be defined before the loop{where}: one "
                             "iteration of the body does not define it either.")
        init[k], invariants[k] = _placeholder_like(value, names[k], where)
        if not is_return_value:
            first.append(names[k])
    return tuple(init), invariants, tuple(first)


def _placeholder_like(value, name, where):
    """(zeros shaped like `value`, the shape invariant it needs)."""
    flows, rebuild = as_flows(value)
    leaves, shapes = [], []
    for leaf in nest.flatten(flows):
        if isinstance(leaf, Variable):
            leaf = leaf.read_value()
        if not isinstance(leaf, Tensor):
            try:
                leaf = convert_to_tensor(leaf)
            except (TypeError, ValueError):
                raise ValueError(f"'{name}' must be defined before the loop{where}: it becomes "
                                 f"{leaf!r:.40} in the loop, which is not a tensor.") from None
        shape = leaf.shape
        known = [0 if d is None else d for d in shape.as_list()] if shape.rank is not None \
            else []
        if shape.rank is None:
            raise ValueError(f"'{name}' must be defined before the loop{where}: its shape in "
                             "the loop is not known, so no initial value can be made for it.")
        leaves.append(creation_ops.zeros(known, leaf.dtype))
        shapes.append(shape if not shape.is_fully_defined() else None)
    packed = nest.pack_sequence_as(flows, leaves) if nest.is_nested(flows) else leaves[0]
    if rebuild is not None:
        packed = rebuild(packed)
    return packed, shapes


def _leaves(value):
    """[(leaf, is a TensorArray's flow)] of a state value."""
    out = []
    for leaf in nest.flatten(value):
        if isinstance(leaf, TensorArray):
            out.append((leaf.flow, True))
        elif isinstance(leaf, Variable):
            out.append((leaf.read_value(), False))
        else:
            out.append((leaf, False))
    return out


def _entry_specs(name, value, where):
    """(structure, [(dtype, shape)] per leaf) of a loop variable's value before the loop."""
    specs = []
    for leaf, _ in _leaves(value):
        try:
            t = leaf if isinstance(leaf, Tensor) else convert_to_tensor(leaf)
        except (TypeError, ValueError):
            kind = type(leaf).__name__
            hint = (" Python lists cannot grow inside a TensorFlow loop: use a TensorArray "
                    "(ta = tf.TensorArray(dtype, size=0, dynamic_size=True); ta = ta.write(i, "
                    "value); ...; ta.stack())." if isinstance(value, list) else "")
            raise TypeError(f"'{name}' is a {kind}, not a tensor, and it changes inside a "
                            f"TensorFlow loop{where}; loop variables must be tensors (or nested "
                            f"structures of them).{hint}") from None
        specs.append((t.dtype, t.shape))
    return _structure(value), specs


def _structure(x):
    return nest.map_structure(lambda _: "T", x) if nest.is_nested(x) else "T"


def _check_iteration(names, entry, invariants, new, where):
    """TensorFlow's errors for a loop variable whose structure, dtype or shape changed."""
    for name, (structure, specs), invariant, value in zip(names, entry, invariants, new):
        if value is None or isinstance(value, (Undefined, UndefinedReturnValue)):
            raise ValueError(f"'{name}' is undefined at the end of an iteration of the loop"
                             f"{where}; every loop variable must keep a tensor value.")
        if _structure(value) != structure:
            raise ValueError(f"'{name}' does not have the same nested structure after one "
                             f"iteration{where}: {structure} before the loop, "
                             f"{_structure(value)} after.")
        for (dtype, shape), (leaf, is_array), inv in zip(specs, _leaves(value), invariant):
            t = leaf if isinstance(leaf, Tensor) else convert_to_tensor(leaf)
            if t.dtype is not dtype:
                raise TypeError(f"'{name}' has dtype {dtype.name} before the loop, but dtype "
                                f"{t.dtype.name} after one iteration{where}")
            if is_array:
                continue
            limit = inv if inv is not None else shape
            if not limit.is_compatible_with(t.shape):
                raise ValueError(
                    f"'{name}' has shape {_shape_text(shape)} before the loop, but shape "
                    f"{_shape_text(t.shape)} after one iteration{where}. Use "
                    "tf.autograph.experimental.set_loop_options to set shape invariants.")


def _shape_text(shape):
    if shape.rank is None:
        return "<unknown>"
    return str(tuple(shape.as_list()))


# -- for ------------------------------------------------------------------------------------------
def for_stmt(iterated, extra_test, body, get_state, set_state, symbol_names, opts):
    """A converted `for` loop (see the module docstring)."""
    graph = state.graph is not None
    if graph and isinstance(iterated, (Tensor, Variable)):
        if isinstance(iterated, Variable):
            iterated = iterated.read_value()
        where = user_location()
        if _is_range(iterated):
            _tf_range_for(iterated, extra_test, body, get_state, set_state, symbol_names, opts,
                          where)
        else:
            _tf_tensor_for(iterated, extra_test, body, get_state, set_state, symbol_names, opts,
                           where)
        return
    if graph and _is_dataset(iterated):
        iterated = iter(iterated)
    if graph and hasattr(iterated, "get_next_as_optional") and not isinstance(iterated, Tensor):
        _tf_iterator_for(iterated, extra_test, body, get_state, set_state, symbol_names, opts,
                         user_location())
        return
    _py_for(iterated, extra_test, body, get_state, set_state, symbol_names)


def _is_dataset(x):
    return hasattr(x, "element_spec") and hasattr(x, "cardinality") and hasattr(x, "reduce")


def _is_range(t):
    op = getattr(t, "op", None)
    return op is not None and op.op_def is creation_ops.RANGE


def _py_for(iterated, extra_test, body, get_state, set_state, names):
    if extra_test is None:
        for item in iterated:
            body(item)
        return
    for item in iterated:
        keep_going = extra_test()
        if is_graph_tensor(keep_going):  # stopped under a tensor condition: guard the rest
            if_stmt(keep_going, functools.partial(body, item), _nothing, get_state, set_state,
                    names, len(names))
            continue
        if not keep_going:
            break
        body(item)


def _nothing():
    pass


def _with_counter(get_state, set_state, box):
    """get/set_state with the loop's own variables (in `box`) first."""
    keys = list(box)

    def get():
        return tuple(box[k] for k in keys) + tuple(get_state())

    def set_(values):
        for k, v in zip(keys, values):
            box[k] = v
        set_state(values[len(keys):])
    return get, set_, tuple(f"<{k}>" for k in keys)


def _extra(extra_test, main):
    if extra_test is None:
        return main
    more = extra_test()
    if is_graph_tensor(more):
        return math_ops.logical_and(main, more)
    return main if more else constant(False)


def _tf_tensor_for(tensor, extra_test, body, get_state, set_state, names, opts, where):
    shape = tensor.shape
    if shape.rank == 0:
        raise TypeError(f"Cannot iterate over a scalar tensor{where}: a `for` loop over a "
                        "tensor runs over its first dimension.")
    n = shape[0] if shape.rank is not None and shape[0] is not None else \
        creation_ops.shape(tensor)[0]
    box = {"index": constant(0)}
    get, set_, extra_names = _with_counter(get_state, set_state, box)

    def test():
        return _extra(extra_test, math_ops.less(box["index"], n))

    def step():
        item = indexing_ops.gather(tensor, box["index"])
        box["index"] = math_ops.add(box["index"], 1)
        body(item)
    _tf_while(test, step, get, set_, extra_names + tuple(names), opts, where)


def _tf_range_for(tensor, extra_test, body, get_state, set_state, names, opts, where):
    start, limit, delta = tensor.op.inputs
    box = {"iterate": start}
    get, set_, extra_names = _with_counter(get_state, set_state, box)
    step_value = creation_ops.constant_value(delta)

    def test():
        i = box["iterate"]
        if step_value is not None:
            main = math_ops.less(i, limit) if step_value > 0 else math_ops.greater(i, limit)
        else:
            main = math_ops.logical_or(
                math_ops.logical_and(math_ops.greater_equal(delta, 0), math_ops.less(i, limit)),
                math_ops.logical_and(math_ops.less(delta, 0), math_ops.greater(i, limit)))
        return _extra(extra_test, main)

    def step():
        item = box["iterate"]
        box["iterate"] = math_ops.add(item, delta)
        body(item)
    _tf_while(test, step, get, set_, extra_names + tuple(names), opts, where)


def _tf_iterator_for(iterator, extra_test, body, get_state, set_state, names, opts, where):
    first = iterator.get_next_as_optional()
    box = {"has_value": first.has_value(), "element": first._value_or_zeros()}
    get, set_, extra_names = _with_counter(get_state, set_state, box)

    def test():
        return _extra(extra_test, box["has_value"])

    def step():
        element = box["element"]
        body(element)
        following = iterator.get_next_as_optional()
        box["has_value"], box["element"] = following.has_value(), following._value_or_zeros()
    _tf_while(test, step, get, set_, extra_names + tuple(names), opts, where)

