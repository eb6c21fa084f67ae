"""`tf.compat.v1.wrap_function`: TensorFlow 1 graph code traced once and called like a function.

`wrap_function(fn, signature)` calls `fn` once inside a fresh FuncGraph named
"wrapped_function" ("wrapped_function_<name>"): each TensorSpec of `signature` becomes a
placeholder ("Placeholder", or the spec's name) and any other value is passed as it is.
Variables the code creates (tf.Variable, get_variable, Keras weights) are lifted out of the
graph and initialized now, eagerly, as TensorFlow's init_scope does: they are ordinary
variables owned by the wrapper, which keep their values from call to call, and they join the
FuncGraph's GLOBAL_VARIABLES (and TRAINABLE_VARIABLES) collections as TF 1 code expects.
Unlike tf.function, nothing is converted by AutoGraph and a call runs only what its outputs
need (data or control dependencies), as `Session.run` does: an assign nobody depends on does not
run. `fn` may return tensors in any structure, or nothing; an Operation is TensorFlow's
TypeError. A call takes one tensor per placeholder, positionally.

`prune(feeds, fetches)` extracts the part of the graph between `feeds` (tensors or their names)
and `fetches` (a structure of tensors, ops, names or TensorInfo protos) into a new
WrappedFunction over a FuncGraph named "pruned": the classic way to run a frozen GraphDef or a
TF 1 model imported with import_graph_def. The pruned function's arguments are the feeds, in
order, positionally or by their op names; an op fetched is run and gives None. A fetch that
needs a placeholder not among the feeds is TensorFlow's UnliftableError, naming the path.
"""
from ..framework import dtypes
from ..framework.context import state, state_scope
from ..framework.errors import InvalidArgumentError
from ..framework.operation import Operation
from ..framework.protos.meta_graph import TensorInfo
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.variables import Variable
from ..framework.variable_creators import creator_scope
from ..graph.collections import GraphKeys
from ..graph.graph import PLACEHOLDER
from ..graph.symbolic import SymbolicTensor
from ..tracing.concrete_function import ConcreteFunction, output_tensor
from ..tracing.func_graph import FuncGraph, placeholder_for
from ..tracing.signatures import TensorSpec
from ..util import nest

__all__ = ["wrap_function", "WrappedFunction", "VariableHolder", "UnliftableError"]


class UnliftableError(Exception):
    """A pruned fetch depends on a placeholder that is not fed (TensorFlow's lift_to_graph)."""


class VariableHolder:
    """Owns the variables a wrapped function creates, and puts them in the graph's collections
    (the variable creator in scope while `fn` is traced)."""

    def __init__(self, fn=None):
        self._fn = fn
        self.variables = []

    def variable_creator_scope(self, next_creator, **kwargs):
        collections = kwargs.pop("collections", None)
        graph = state.graph
        name = kwargs.get("name")
        if graph is not None and name and graph._scope and not name.startswith(graph._scope):
            kwargs["name"] = graph._scope + name  # a name scope names the variable, as in TF
        variable = next_creator(**kwargs)
        self.variables.append(variable)
        collections = list(collections or [GraphKeys.GLOBAL_VARIABLES])
        if variable.trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        if graph is not None:
            graph.add_to_collections(collections, variable)
        return variable

    def __call__(self, *args, **kwargs):
        with creator_scope(self.variable_creator_scope):
            return self._fn(*args, **kwargs)

    def __repr__(self):
        return f"<VariableHolder of {getattr(self._fn, '__name__', self._fn)!r}>"


def wrap_function(fn, signature, name=None):
    """Trace the TF 1 function `fn` once with `signature` (TensorSpecs become placeholders;
    other values are passed as they are) into a callable WrappedFunction."""
    holder = VariableHolder(fn)
    graph = FuncGraph("wrapped_function" if name is None else f"wrapped_function_{name}")
    with state_scope(None), graph.as_default():
        args = nest.map_structure(lambda s: _placeholder(graph, s), list(signature or []))
        outputs = holder(*args)
        flat = nest.flatten(outputs, True)
        for value in flat:
            if isinstance(value, Operation):
                raise TypeError(
                    "To be compatible with tf.function, Python functions must return zero or "
                    "more Tensors or ExtensionTypes or None values; in compilation of "
                    f"{holder!r}, found return value of type Operation, which is not a Tensor "
                    "or ExtensionType. (Return a tensor computed under "
                    "tf.control_dependencies([op]) to run the op.)")
        flat = [output_tensor(graph, o, repr(holder)) for o in flat]
    graph.inputs = [a for a in nest.flatten(args, True) if isinstance(a, SymbolicTensor)
                    and a.op.op_def is PLACEHOLDER and a.graph is graph]
    graph.structured_input_signature = (tuple(args), {})
    graph.structured_outputs, graph.outputs = outputs, flat
    return WrappedFunction(graph, holder, outputs, flat, signature=signature)


def _placeholder(graph, spec):
    if isinstance(spec, TensorSpec):
        return placeholder_for(graph, spec.dtype, spec.shape, spec.name or "Placeholder")
    return spec


class WrappedFunction(ConcreteFunction):
    """A traced TF 1 function: call it with one tensor per input; `prune` a part of it."""

    def __init__(self, graph, holder, structured_outputs, flat_outputs, control_outputs=(),
                 signature=None, arg_keywords=None):
        graph.control_outputs = list(control_outputs)
        super().__init__(graph, structured_outputs, flat_outputs, targets=control_outputs)
        self._variable_holder = holder
        self._signature = signature
        self._arg_keywords = arg_keywords

    def _compile(self, fetches, targets):
        """The plan, or for outputs that need an unfed placeholder the error a call raises
        (TensorFlow wraps such code and fails when it runs)."""
        try:
            return super()._compile(fetches, targets)
        except InvalidArgumentError as err:
            return _Unrunnable(err)

    @property
    def name(self):
        return f"__inference_{self.graph.name}".encode()

    def __call__(self, *args, **kwargs):
        inputs = self.graph.inputs
        if kwargs:
            if self._arg_keywords is None:
                raise NotImplementedError(
                    "Keyword arguments are not supported when calling a wrap_function-decorated "
                    f"function. Got {kwargs}.")
            args = self._bind_keywords(args, kwargs)
        if len(args) != len(inputs):
            raise ValueError(
                f"Signature specifies {len(inputs)} arguments, got: {len(args)}. Expected "
                f"inputs: {[p.op.name for p in inputs]}. Received inputs: {args!r:.200}.")
        return self._call([self._fed(a, p, i) for i, (a, p) in enumerate(zip(args, inputs))])

    def _bind_keywords(self, args, kwargs):
        names = self._arg_keywords
        args = list(args) + [None] * (len(names) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"{self.graph.name}() got an unexpected keyword argument "
                                f"{key!r}; its arguments are {names}.")
            args[names.index(key)] = value
        missing = [n for n, a in zip(names, args) if a is None]
        if missing:
            raise TypeError(f"{self.graph.name}() missing required arguments: {missing}.")
        return args

    def _fed(self, value, placeholder, index):
        """`value` as the feed of `placeholder`: TensorFlow's errors for a dtype it is not."""
        dtype = placeholder.dtype
        if not isinstance(value, Tensor):
            return convert_to_tensor(value, dtype=dtype)
        if value.dtype is not dtype:
            if self._arg_keywords is None:
                raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor "
                                 f"with dtype {value.dtype.name}: {value!r}")
            raise InvalidArgumentError(
                f"cannot compute {self.name.decode()} as input #{index}(zero-based) was "
                f"expected to be a {_type_word(dtype)} tensor but is a "
                f"{_type_word(value.dtype)} tensor [Op:{self.name.decode()}]")
        if not placeholder.shape.is_compatible_with(value.shape):
            raise InvalidArgumentError(
                f"{self.name.decode()}: input #{index} ('{placeholder.op.name}') has shape "
                f"{placeholder.shape}, fed a tensor of shape {value.shape}; feed a tensor of "
                "that shape.")
        return value

    def prune(self, feeds, fetches, name=None, input_signature=None,
              are_keyword_args_also_positional=False):
        """A new WrappedFunction computing `fetches` from `feeds` (its arguments, in order)."""
        graph = self.graph
        flat_feeds = [graph.as_graph_element(t) for t in nest.flatten(feeds, True)]
        for f in flat_feeds:
            if not isinstance(f, SymbolicTensor):
                raise ValueError("All members of argument `feeds` must be tensors. Got "
                                 f"{f} with type {type(f)}.")
        op_fetches, tensor_fetches = [], []
        fetches = nest.map_structure(
            lambda f: _sort_fetch(graph, f, op_fetches, tensor_fetches), fetches)
        for f in flat_feeds + tensor_fetches + op_fetches:
            if f.graph is not graph:
                raise ValueError(f"Can only prune function whose feeds and fetches from graph "
                                 f"{graph}. Input {f} is from a different graph {f.graph}.")
        ops = _ops_between(graph, flat_feeds, tensor_fetches, op_fetches)
        pruned = FuncGraph(name or "pruned")
        with state_scope(None), pruned.as_default():
            pruned.inputs = [placeholder_for(pruned, f.dtype, f.shape, f.op.name)
                             for f in flat_feeds]
            values, copies = _copy_ops(graph, pruned, ops, flat_feeds)
        controls = [copies[id(o)] for o in op_fetches]
        structured = nest.map_structure(
            lambda f: None if isinstance(f, Operation) else values[id(f)], fetches)
        pruned.structured_input_signature = input_signature
        pruned.structured_outputs, pruned.outputs = structured, nest.flatten(structured, True)
        return WrappedFunction(pruned, self._variable_holder, structured, pruned.outputs,
                               controls, arg_keywords=[f.op.name for f in flat_feeds])


class _Unrunnable:
    """The plan of a function whose outputs cannot be computed: running it raises why."""

    def __init__(self, error):
        self._error = error

    def run(self, feeds, variables):
        raise type(self._error)(self._error.message)


def _type_word(dtype):
    return {dtypes.float32: "float", dtypes.float64: "double"}.get(dtype, dtype.name)


def _sort_fetch(graph, fetch, op_fetches, tensor_fetches):
    """One fetch of `prune` as the graph's tensor or op, noted in the list of its kind."""
    if isinstance(fetch, TensorInfo):
        fetch = fetch.name
    if isinstance(fetch, str):
        fetch = graph.as_graph_element(fetch)
    if isinstance(fetch, Operation):
        op_fetches.append(fetch)
    elif isinstance(fetch, SymbolicTensor):
        tensor_fetches.append(fetch)
    else:
        raise TypeError(f"prune: a fetch must be a tensor, an operation, a name or a "
                        f"TensorInfo of this graph, got {fetch!r}.")
    return fetch


def _ops_between(graph, feeds, tensor_fetches, op_fetches):
    """The ops the fetches need that the feeds do not cut off, in creation order; an unfed
    placeholder among them is TensorFlow's UnliftableError naming one path to it."""
    fed = {id(f) for f in feeds}
    parent = {}  # id(op) -> the op that needed it first (for the error's path)
    chosen, stack = {}, [(t.op, None) for t in tensor_fetches if id(t) not in fed]
    stack += [(op, None) for op in op_fetches]
    while stack:
        op, child = stack.pop()
        if id(op) in chosen:
            continue
        chosen[id(op)], parent[id(op)] = op, child
        if op.op_def is PLACEHOLDER:
            fetch = _root(op, parent)
            raise UnliftableError(
                f"Unable to lift tensor {fetch.outputs[0]!r} because it depends transitively on "
                f"placeholder {op!r} via at least one path, e.g.: {_path(op, parent)}")
        stack += [(t.op, op) for t in op.inputs
                  if isinstance(t, SymbolicTensor) and id(t) not in fed]
        stack += [(c, op) for c in op.control_inputs]
    return [op for op in graph._ops if id(op) in chosen]


def _copy_ops(graph, pruned, ops, feeds):
    """Rebuild `ops` of `graph` in `pruned` (being built), names, attributes and control
    dependencies kept, the feeds standing for the pruned graph's inputs. Returns dicts
    id(old tensor) -> new tensor and id(old op) -> new op."""
    values = {id(f): p for f, p in zip(feeds, pruned.inputs)}
    for original, const in graph._captured.values():
        values[id(const)] = original  # captured again, as a constant of the pruned graph
    copies = {}
    for op in ops:
        if op.outputs and all(id(t) in values for t in op.outputs):
            continue
        inputs = tuple(t if isinstance(t, Variable) else values[id(t)] for t in op.inputs)
        for t in inputs:
            if isinstance(t, Variable):
                pruned._note_variable(t)
        controls = [copies[id(c)] for c in op.control_inputs if id(c) in copies]
        with pruned.control_dependencies(controls):
            out = pruned.create_op(op.op_def, inputs, op.attrs, op.name)
        new = out if isinstance(out, Operation) else nest.flatten(out)[0].op
        new.gradient_override = op.gradient_override
        copies[id(op)] = new
        values.update((id(t), n) for t, n in zip(op.outputs, new.outputs))
    return values, copies


def _root(op, parent):
    while parent[id(op)] is not None:
        op = parent[id(op)]
    return op


def _path(op, parent):
    steps = []
    while op is not None:
        steps.append(f"{op.name} ({op.type})")
        op = parent[id(op)]
    return " <- ".join(reversed(steps))
