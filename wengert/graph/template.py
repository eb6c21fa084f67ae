"""`tf.compat.v1.make_template(name, func)`: a function whose variables are made once and then
shared.

The template owns a variable scope, made unique from `name` ("dense", "dense_1", ...) or named
`unique_name_` as given, opened when the template is made (`create_scope_now_=True`) or on its
first call. The first call runs `func` in that scope creating its variables with `get_variable`;
every later call re-enters the scope with reuse=True, so the same variables serve every call,
and making a new trainable variable then is TensorFlow's ValueError (a `tf.Variable` where
`get_variable` was meant). Templates work while building a graph, as in TensorFlow 1.
"""
import functools

from ..framework.context import state
from .collections import GraphKeys, get_collection, get_collection_ref
from .variable_scope import _unique_scope_name, variable_scope

__all__ = ["Template", "make_template"]


class Template:
    """A function with variables of its own (see the module docstring)."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None,
                 custom_getter=None, create_graph_function=False):
        if name is None:
            raise ValueError("name cannot be None.")
        if create_graph_function:
            raise NotImplementedError("make_template: create_graph_function_=True (running "
                                      "func_ as a tf.function) is not supported; leave it "
                                      "False.")
        self._func, self._name = func, name
        self._unique_name, self._custom_getter = unique_name, custom_getter
        self._variable_scope = None
        self._variables_created = False
        if create_scope_now:
            scope = variable_scope(unique_name or _unique_scope_name(name),
                                   custom_getter=custom_getter, auxiliary_name_scope=False)
            with scope as opened:
                self._variable_scope = opened

    def __call__(self, *args, **kwargs):
        if state.graph is None:
            raise NotImplementedError("make_template: calling a template eagerly (TensorFlow's "
                                      "EagerTemplate) is not supported; build a graph.")
        if self._variable_scope is not None:
            with variable_scope(self._variable_scope, reuse=self._variables_created):
                return self._call_func(args, kwargs)
        with variable_scope(self._unique_name, self._name,
                            custom_getter=self._custom_getter) as scope:
            self._variable_scope = scope
            return self._call_func(args, kwargs)

    def _call_func(self, args, kwargs):
        if not self._variables_created:
            result = self._func(*args, **kwargs)
            self._variables_created = True
            return result
        trainable = get_collection_ref(GraphKeys.TRAINABLE_VARIABLES)
        before = len(trainable)
        result = self._func(*args, **kwargs)
        if len(trainable) != before:
            raise ValueError("Trainable variable created when calling a template after the "
                             "first time, perhaps you used tf.Variable when you meant "
                             f"tf.get_variable: {trainable[before:]}")
        return result

    name = property(lambda self: self._name)
    func = property(lambda self: self._func)
    variable_scope = property(lambda self: self._variable_scope)

    @property
    def variable_scope_name(self):
        """The scope's name with a final "/" (None before the scope exists)."""
        if self._variable_scope is None:
            return None
        name = self._variable_scope.name
        return name if not name or name.endswith("/") else name + "/"

    def _created(self, key):
        if not self._variables_created:
            return []
        return get_collection(key, self.variable_scope_name)

    @property
    def trainable_variables(self):
        return self._created(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def global_variables(self):
        return self._created(GraphKeys.GLOBAL_VARIABLES)

    @property
    def local_variables(self):
        return self._created(GraphKeys.LOCAL_VARIABLES)

    @property
    def variables(self):
        return self.global_variables + self.local_variables

    @property
    def non_trainable_variables(self):
        trainable = set(map(id, self.trainable_variables))
        return [v for v in self.global_variables if id(v) not in trainable]

    weights = variables
    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables


def make_template(name_, func_, create_scope_now_=False, unique_name_=None,
                  custom_getter_=None, **kwargs):
    """A `Template` calling `func_` (with `kwargs` bound) whose variables are shared between
    calls."""
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)
