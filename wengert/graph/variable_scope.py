"""TensorFlow 1's variable scopes: `variable_scope`, `VariableScope`, `get_variable`.

A variable scope names the variables `get_variable` makes and says whether they are shared. Each
scope is a `VariableScope` (a name such as "encoder/layer1", a reuse mode, and defaults for
initializer, regularizer, dtype, constraint, custom getter and caching device); the current one is
kept per graph, with a count of how often each scope name was opened so that
`variable_scope(None, default_name="dense")` gives "dense", "dense_1", ... .

Names follow TensorFlow 1 exactly. A variable's name depends only on the variable scopes around
it ("a/b/w"), never on `name_scope`; ops built inside take the name scope that `variable_scope`
opens alongside, which is unique in the graph: entering "foo" a second time (to reuse its
variables) puts ops under "foo_1/", and re-entering a `VariableScope` object opens a new name scope
named for its last component, while the object keeps its `original_name_scope`. Reuse is
inherited by nested scopes: once True, a nested `reuse=False` (which means "inherit") stays True.
"""
import copy
import functools

from ..framework import dtypes
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from .collections import GraphKeys, get_collection
from .graph import get_default_graph, name_scope
from .variable_store import AUTO_REUSE, variable_store

__all__ = ["VariableScope", "variable_scope", "variable_op_scope", "get_variable_scope",
           "get_variable", "get_local_variable", "no_regularizer", "AUTO_REUSE"]

_SCOPE_STORE_KEY = "__varscope"


class VariableScope:
    """A variable scope: its name, reuse mode and the defaults its variables get."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, name_scope="", dtype=dtypes.float32,
                 use_resource=None, constraint=None):
        self._name = name
        self._reuse = reuse
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = dtypes.as_dtype(dtype)
        self._use_resource = use_resource
        self._constraint = constraint

    name = property(lambda self: self._name)
    original_name_scope = property(lambda self: self._name_scope)
    reuse = property(lambda self: self._reuse)
    initializer = property(lambda self: self._initializer)
    regularizer = property(lambda self: self._regularizer)
    caching_device = property(lambda self: self._caching_device)
    partitioner = property(lambda self: self._partitioner)
    custom_getter = property(lambda self: self._custom_getter)
    dtype = property(lambda self: self._dtype)
    use_resource = property(lambda self: self._use_resource)
    constraint = property(lambda self: self._constraint)

    def reuse_variables(self):
        """Share variables from now on in this scope (reuse=True)."""
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_dtype(self, dtype):
        self._dtype = dtypes.as_dtype(dtype)

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    def set_caching_device(self, caching_device):
        self._caching_device = caching_device

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    def get_collection(self, name):
        """The items of collection `name` whose names lie inside this scope."""
        return get_collection(name, self._name + "/" if self._name else "")

    def trainable_variables(self):
        return self.get_collection(GraphKeys.TRAINABLE_VARIABLES)

    def global_variables(self):
        return self.get_collection(GraphKeys.GLOBAL_VARIABLES)

    def local_variables(self):
        return self.get_collection(GraphKeys.LOCAL_VARIABLES)

    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, custom_getter=None, constraint=None,
                     synchronization=None, aggregation=None):
        """The variable `name` of this scope from `var_store`, with this scope's defaults for
        the arguments not given."""
        if state.graph is None:
            reuse = False  # eagerly, TensorFlow makes a new variable every time
        elif reuse is None:
            reuse = self._reuse
        full_name = f"{self._name}/{name}" if self._name else name
        with name_scope(""):
            if dtype is not None and initializer is not None and not callable(initializer):
                given = convert_to_tensor(initializer).dtype
                if given != dtypes.as_dtype(dtype):
                    raise ValueError(f"Initializer type '{given}' and explicit dtype "
                                     f"'{dtypes.as_dtype(dtype)}' don't match.")
            return var_store.get_variable(
                full_name, shape=shape, dtype=self._dtype if dtype is None else dtype,
                initializer=self._initializer if initializer is None else initializer,
                regularizer=self._regularizer if regularizer is None else regularizer,
                reuse=reuse, trainable=trainable, collections=collections,
                caching_device=_default(caching_device, self._caching_device),
                partitioner=_default(partitioner, self._partitioner),
                validate_shape=validate_shape,
                use_resource=_default(use_resource, self._use_resource),
                custom_getter=_default(custom_getter, self._custom_getter),
                constraint=_default(constraint, self._constraint),
                synchronization=synchronization, aggregation=aggregation)

    def __repr__(self):
        return f"<VariableScope '{self._name}' reuse={self._reuse}>"


def _default(value, fallback):
    return fallback if value is None else value


class _ScopeStore:
    """A graph's current variable scope and how often each scope name was opened."""

    def __init__(self):
        self.current_scope = VariableScope(False)
        self.counts = {}

    def open(self, scope_name):
        self.counts[scope_name] = self.counts.get(scope_name, 0) + 1

    def close_subscopes(self, scope_name):
        prefix = scope_name + "/"
        for key in self.counts:
            if key.startswith(prefix):
                self.counts[key] = 0


def _scope_store():
    stores = get_default_graph().get_collection_ref(_SCOPE_STORE_KEY)
    if not stores:
        stores.append(_ScopeStore())
    return stores[0]


def get_variable_scope():
    """The variable scope in effect (the root scope, named "", outside any)."""
    return _scope_store().current_scope


def _unique_scope_name(prefix):
    """`prefix`, or `prefix_1`, `prefix_2`, ...: unique in the current variable scope."""
    store = _scope_store()
    parent = store.current_scope.name
    full = f"{parent}/{prefix}" if parent else prefix
    if not store.counts.get(full):
        return prefix
    index = 1
    while store.counts.get(f"{full}_{index}"):
        index += 1
    return f"{prefix}_{index}"


def _wrap_custom_getter(custom_getter, outer_getter):
    """A getter calling `custom_getter` with the enclosing scope's getter in between."""
    if outer_getter is None:
        return custom_getter

    def wrapped(getter, *args, **kwargs):
        return custom_getter(functools.partial(outer_getter, getter), *args, **kwargs)
    return wrapped


def _scope_for(name_or_scope, old, reuse, old_name_scope):
    """The VariableScope that `name_or_scope` opens inside `old`, before the given overrides."""
    if isinstance(name_or_scope, VariableScope):
        base, name = name_or_scope, name_or_scope.name
        reuse = reuse if reuse else base.reuse
        scope_name = base.original_name_scope
    else:
        base = old
        name = f"{old.name}/{name_or_scope}" if old.name else name_or_scope
        reuse = reuse or old.reuse
        scope_name = name_or_scope if old_name_scope is None else old_name_scope
    return VariableScope(reuse, name=name, initializer=base.initializer,
                         regularizer=base.regularizer, caching_device=base.caching_device,
                         partitioner=base.partitioner, custom_getter=base.custom_getter,
                         name_scope=scope_name, dtype=base.dtype, use_resource=base.use_resource)


class variable_scope:  # noqa: N801 (TensorFlow's public name)
    """`with tf.compat.v1.variable_scope("layer1", reuse=..., initializer=...) as scope:` names
    and shares the variables `get_variable` makes inside, and opens a name scope for the ops.

    name_or_scope: a name (nested in the current variable scope) or a `VariableScope` to enter
    again; None uses `default_name`, made unique. reuse: True (share existing variables only),
    AUTO_REUSE (share or create), False/None (inherit). The other arguments set the defaults of
    the variables made inside. values: tensors whose graph the scope builds in."""

    def __init__(self, name_or_scope, default_name=None, values=None, initializer=None,
                 regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
                 reuse=None, dtype=None, use_resource=None, constraint=None,
                 auxiliary_name_scope=True):
        if default_name is None and name_or_scope is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if name_or_scope is not None and not isinstance(name_or_scope, (VariableScope, str)):
            raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
        reuse = None if reuse is False else reuse
        if not (reuse is True or reuse is None or reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError("The auxiliary_name_scope must be `True` or `False`, while get "
                            f"{auxiliary_name_scope}")
        if custom_getter is not None and not callable(custom_getter):
            raise ValueError(f"Passed a custom_getter which is not callable: {custom_getter}")
        self._name_or_scope = name_or_scope
        self._default_name = default_name
        self._values = list(values or [])
        self._reuse = reuse
        self._auxiliary_name_scope = auxiliary_name_scope
        self._overrides = dict(initializer=initializer, regularizer=regularizer,
                               caching_device=caching_device, partitioner=partitioner,
                               dtype=dtype, use_resource=use_resource)
        self._custom_getter = custom_getter
        self._constraint = constraint
        self._entered = []

    def __enter__(self):
        exits = []
        self._entered.append(exits)
        try:
            return self._enter(exits)
        except BaseException:
            self._unwind(exits)
            self._entered.pop()
            raise

    def _enter(self, exits):
        if state.graph is not None:
            _enter(self._graph().as_default(), exits)
        name_scope_context = None
        if not self._auxiliary_name_scope:
            current = get_default_graph().get_name_scope() if state.graph is not None \
                else state.scope_name.rstrip("/")
            name_scope_context = name_scope(current + "/" if current else "")
        scope = self._name_or_scope
        if scope is None:
            if self._reuse:
                raise ValueError("reuse=True cannot be used without a name_or_scope")
            entered = _enter(name_scope_context or name_scope(self._default_name), exits)
            return self._open(_unique_scope_name(self._default_name), entered, exits)
        short = scope if isinstance(scope, str) else scope.name.split("/")[-1]
        if not (short or name_scope_context):
            return self._open(scope, None, exits)
        entered = _enter(name_scope_context or name_scope(short), exits)
        return self._open(scope, entered if isinstance(scope, str) else None, exits)

    def _graph(self):
        graphs = {id(v.graph): v.graph for v in self._values
                  if getattr(v, "graph", None) is not None}
        if len(graphs) > 1:
            raise ValueError(f"variable_scope: values {self._values} come from different "
                             "graphs; pass tensors of one graph.")
        return next(iter(graphs.values())) if graphs else get_default_graph()

    def _open(self, name_or_scope, old_name_scope, exits):
        store = _scope_store()
        old = store.current_scope
        new = _scope_for(name_or_scope, old, self._reuse, old_name_scope)
        new._constraint = self._constraint
        for key, value in self._overrides.items():
            if value is not None:
                getattr(new, f"set_{key}")(value)
        if self._custom_getter is not None:
            outer = (name_or_scope if isinstance(name_or_scope, VariableScope)
                     else old).custom_getter
            new.set_custom_getter(_wrap_custom_getter(self._custom_getter, outer))
        store.open(new.name)
        saved_counts = copy.copy(store.counts)  # restored when a re-entered scope closes
        store.current_scope = new
        exits.append(functools.partial(_close, store, old, new, name_or_scope, saved_counts))
        return new

    def __exit__(self, *exc):
        self._unwind(self._entered.pop())
        return False

    @staticmethod
    def _unwind(exits):
        while exits:
            exits.pop()()


def _enter(context, exits):
    value = context.__enter__()
    exits.append(lambda: context.__exit__(None, None, None))
    return value


def _close(store, old, new, name_or_scope, saved_counts):
    if store.current_scope is not new:
        raise RuntimeError("Improper nesting of variable_scope.")
    if isinstance(name_or_scope, VariableScope):
        store.counts = saved_counts
    else:
        store.close_subscopes(new.name)
    store.current_scope = old


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=None, aggregation=None):
    """The variable `name` of the current variable scope: made with `shape`, `initializer`
    (default: the scope's, else Glorot uniform for floats and zeros otherwise), `dtype`,
    `trainable`, `collections`, `regularizer` and `constraint` when the scope's reuse allows
    creating it, or the existing one when its reuse allows sharing; ValueError otherwise."""
    return get_variable_scope().get_variable(
        variable_store(state.graph), name, shape=shape, dtype=dtype, initializer=initializer,
        regularizer=regularizer, trainable=trainable, collections=collections,
        caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
        use_resource=use_resource, custom_getter=custom_getter, constraint=constraint,
        synchronization=synchronization, aggregation=aggregation)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, caching_device=None, partitioner=None,
                       validate_shape=True, use_resource=None, custom_getter=None,
                       constraint=None, synchronization=None, aggregation=None):
    """`get_variable` for a LOCAL_VARIABLES variable (never trainable, as in TensorFlow, which
    reads `trainable` only to ignore it)."""
    _ = trainable  # TensorFlow ignores it too: a local variable is never trainable
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, trainable=False, collections=collections,
                        caching_device=caching_device, partitioner=partitioner,
                        validate_shape=validate_shape, use_resource=use_resource,
                        custom_getter=custom_getter, constraint=constraint,
                        synchronization=synchronization, aggregation=aggregation)


def variable_op_scope(values, name_or_scope, default_name=None, initializer=None,
                      regularizer=None, caching_device=None, partitioner=None,
                      custom_getter=None, reuse=None, dtype=None, use_resource=None,
                      constraint=None):
    """TensorFlow 1's deprecated spelling of `variable_scope(name_or_scope, default_name,
    values, ...)`."""
    return variable_scope(name_or_scope, default_name=default_name, values=values,
                          initializer=initializer, regularizer=regularizer,
                          caching_device=caching_device, partitioner=partitioner,
                          custom_getter=custom_getter, reuse=reuse, dtype=dtype,
                          use_resource=use_resource, constraint=constraint)


def no_regularizer(_):
    """The regularizer that gives no loss for any variable `_` (a scope's
    `regularizer=no_regularizer` turns an inherited one off)."""
    del _  # every variable gets no loss
    return None
