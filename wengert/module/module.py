"""`Module`: TensorFlow 2's `tf.Module`, a named container of variables and other modules.

    class Dense(tf.Module):
        def __init__(self, n_in, n_out, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.random.normal([n_in, n_out]), name="w")
            self.b = tf.Variable(tf.zeros([n_out]), name="b")

        @tf.Module.with_name_scope
        def __call__(self, x):
            return tf.nn.relu(x @ self.w + self.b)

Tracking (TensorFlow's rules). Nothing is registered when an attribute is set: `variables`,
`trainable_variables`, `non_trainable_variables` and `submodules` walk the module's attributes
when asked. Attributes are visited in sorted-name order, and each value is looked into as a
nested structure (lists, tuples, dicts in sorted-key order, namedtuples), so variables and modules
inside containers are found too; each object is reported once, at its first position. A module's
own leaves come first, then each submodule's, recursively, in the order the submodules were found
(a module that contains itself is not walked again). The walk is an explicit queue, not recursion.

Name scopes. A module's name defaults to its class name in snake_case and must be a Python
identifier. Its `name_scope` is the name scope current at construction plus the name
("outer/dense/"); `with_name_scope` wraps a method so that what it creates (variables, graph ops)
is named inside that scope.

Checkpoints. A module is a trackable of `train.Checkpoint`: its children are its attributes that
hold Variables, modules (any trackable) or containers of them, keyed by attribute name and list
position ("model/layers/0/w"), so a checkpoint restores into any module built the same way, in
this process or another. Values saved for variables the module creates later (on its first call)
wait in the module and are assigned when the attribute is set.
"""
import collections
import functools
import keyword
import re

from ..framework.variables import Variable
from ..graph.graph import current_scope_name, name_scope

__all__ = ["Module", "camel_to_snake", "valid_identifier"]

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_IDENTIFIER = re.compile(r"^[a-zA-Z_]([a-zA-Z0-9_])*$")
# Bookkeeping attributes of a module that are not part of what it holds.
IGNORED = frozenset(("_module_scope_name", "_pending_restores"))


def camel_to_snake(value):
    """"MyDense2D" -> "my_dense2_d" (TensorFlow's rule for default module names)."""
    return _CAMEL_TO_SNAKE.sub(r"_\1", value).lower()


def valid_identifier(name):
    return bool(_IDENTIFIER.match(name)) and not keyword.iskeyword(name)


class Module:
    """Base class of models and their parts: named, holding variables and submodules."""

    def __init__(self, name=None):
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not valid_identifier(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python identifiers (e.g. a valid class name).")
        self._name = name
        with name_scope(name) as scope:  # uniquified while a graph is built, as in TF
            self._module_scope_name = scope or f"{current_scope_name()}{name}/"

    # -- names ----------------------------------------------------------------------------------
    @property
    def name(self):
        """The module's name (without its enclosing scopes)."""
        return self._name

    @property
    def name_scope(self):
        """The name scope of this module: `with module.name_scope:` names what is built inside
        "<enclosing scopes>/<name>/"."""
        scope = self.__dict__.get("_module_scope_name") or f"{self.name}/"
        return name_scope(scope)

    @classmethod
    def with_name_scope(cls, method):
        """Decorator: run `method` inside its module's name scope."""
        @functools.wraps(method)
        def in_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return in_scope

    # -- what it holds ----------------------------------------------------------------------------
    @property
    def variables(self):
        """Every Variable of this module and its submodules (each once), as a tuple."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(predicate=lambda x: _is_variable(x) and x.trainable))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(predicate=lambda x: _is_variable(x) and not x.trainable))

    @property
    def submodules(self):
        """Every module reachable from this one (not itself), breadth first."""
        return tuple(self._flatten(predicate=lambda x: isinstance(x, Module)))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None,
                 with_path=False, expand_composites=False):
        """The values under this module's attributes for which `predicate` holds, in TF's
        order (see the module docstring); with `with_path`, (path tuple, value) pairs (then a
        value is reported at every path that reaches it)."""
        predicate = predicate or (lambda _: True)
        seen = {id(self)}
        stack = [((), self, frozenset())]
        while stack:  # depth first: a submodule's values before the next submodule's
            path, module, ancestors = stack.pop()
            ancestors = ancestors | {id(module)}
            found = []
            attributes = _attributes(module)
            for key in sorted(attributes, key=attribute_traversal_key):
                for leaf_path, leaf in _leaves_with_paths(attributes[key]):
                    leaf_path = path + (key,) + leaf_path
                    if not with_path:
                        if id(leaf) in seen:
                            continue
                        seen.add(id(leaf))
                    if predicate(leaf):
                        yield (leaf_path, leaf) if with_path else leaf
                    if recursive and isinstance(leaf, Module) and id(leaf) not in ancestors:
                        found.append((leaf_path, leaf, ancestors))
            stack.extend(reversed(found))

    # -- checkpoints ----------------------------------------------------------------------------
    def _checkpoint_children(self):
        """{attribute name: Variable, trackable, or container of them} for train.Checkpoint."""
        children = {}
        for key, value in _attributes(self).items():
            child = trackable_child(value)
            if child is not None:
                children[key] = child
        return children

    def _defer_restore(self, values):
        """Keep checkpointed values {"w": array, "dense/b": array} for variables not created
        yet; they are assigned when the attribute (or the submodule's) is set."""
        pending = self.__dict__.setdefault("_pending_restores", {})
        pending.update(values)

    def __setattr__(self, key, value):
        object.__setattr__(self, key, value)
        pending = self.__dict__.get("_pending_restores")
        if pending:
            _apply_pending(pending, key, value)

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} name={self.name!r}>"


# -- walking attributes ------------------------------------------------------------------------------
def _is_variable(x):
    return isinstance(x, Variable)


def _attributes(module):
    return {k: v for k, v in vars(module).items() if k not in IGNORED
            and k not in getattr(module, "_TF_MODULE_IGNORED_PROPERTIES", ())}


def _is_container(x):
    return isinstance(x, (list, tuple, dict)) and not isinstance(x, (str, bytes))


def _items(container):
    if isinstance(container, dict):
        try:
            keys = sorted(container)
        except TypeError:
            keys = list(container)
        return [(k, container[k]) for k in keys]
    return list(enumerate(container))


def _leaves_with_paths(value):
    """[(path tuple, leaf)] of a nested structure, depth first (dicts by sorted key)."""
    out, stack = [], [((), value)]
    while stack:
        path, item = stack.pop()
        if _is_container(item):
            stack.extend(reversed([(path + (k,), v) for k, v in _items(item)]))
        else:
            out.append((path, item))
    return out


# -- checkpoint children ----------------------------------------------------------------------------
def _is_trackable(x):
    return isinstance(x, Variable) or callable(getattr(x, "_checkpoint_children", None))


class TrackedContainer:
    """A list, tuple or dict attribute seen by a checkpoint: children keyed "0", "1"... or by
    dict key, holding only what can be saved."""

    def __init__(self, children):
        self._children = children

    def _checkpoint_children(self):
        return self._children


def trackable_child(value):
    """What a checkpoint saves under an attribute holding `value`: the value if it is a Variable
    or trackable, a TrackedContainer for a container holding some, else None."""
    if _is_trackable(value):
        return value
    if not _is_container(value):
        return None
    root = {}
    stack = [(value, root)]
    while stack:  # explicit stack: containers of containers
        container, children = stack.pop()
        for key, item in _items(container):
            if _is_trackable(item):
                children[str(key)] = item
            elif _is_container(item):
                inner = {}
                children[str(key)] = TrackedContainer(inner)
                stack.append((item, inner))
    return _prune_empty(TrackedContainer(root))


def _prune_empty(container):
    """None for a container tree without any trackable; drops empty branches otherwise."""
    order, stack = [], [container]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(c for c in node._children.values() if isinstance(c, TrackedContainer))
    for node in reversed(order):  # children before parents
        node._children = {k: c for k, c in node._children.items()
                          if not (isinstance(c, TrackedContainer) and not c._children)}
    return container if container._children else None


def _apply_pending(pending, key, value):
    """Assign checkpointed values waiting for attribute `key` now that it holds `value`."""
    prefix = key + "/"
    mine = {name[len(prefix):]: pending.pop(name)
            for name in [n for n in pending if n == key or n.startswith(prefix)]
            if name != key}
    if key in pending and isinstance(value, Variable):
        value.assign(pending.pop(key))
    child = trackable_child(value)
    if mine and child is not None and not isinstance(child, Variable):
        restore_into(child, mine)


def restore_into(trackable, values):
    """Give each {relative path: array} to the variable at that path under `trackable`, or to
    the deepest trackable on the way that accepts deferred restores (one not built yet)."""
    for path, array in values.items():
        node, parts = trackable, path.split("/")
        while parts and not isinstance(node, Variable):
            child = node._checkpoint_children().get(parts[0])
            if child is None:
                break
            node, parts = child, parts[1:]
        if isinstance(node, Variable):
            if not parts:
                node.assign(array)
        elif callable(getattr(node, "_defer_restore", None)):
            node._defer_restore({"/".join(parts): array})
