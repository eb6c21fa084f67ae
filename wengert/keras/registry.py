"""`get`, `serialize` and `deserialize` of Keras's six object namespaces, written once.

keras.activations, initializers, constraints, regularizers, losses and metrics each keep a
table of the names their objects are known by ("relu", "glorot_uniform", "MaxNorm", "l2",
"mse", "AUC", ...) and hand it to a Registry, whose methods are the namespace's functions:

    get(x)          None -> the namespace's default (None; linear for activations; metrics
                    refuse it); an instance of the namespace's base class -> itself; a name ->
                    the table's entry (a class is instantiated, a function returned), looked up
                    as given and then in the namespace's folded forms (lower case,
                    snake_case); a config dict -> deserialize(x); a class of the base -> an
                    instance; another callable -> itself (metrics wrap it in a running mean).
    serialize(x)    activations: the name of x. Elsewhere a function of the table -> Keras 3's
                    function record {"module", "class_name": "function", "config": name,
                    "registered_name": name}; anything else -> serialize_keras_object(x).
    deserialize(c)  a name -> as get, after custom_objects and the registered objects; a
                    function record -> the function it names; a class config ->
                    deserialize_keras_object(c) with the table as the module's objects.

An unknown name is a ValueError naming the namespace's known names; a value of a kind that
cannot name an object is a TypeError.
"""
import inspect

from .backend import to_snake_case
from .serialization import deserialize_keras_object, get_registered_object, serialize_keras_object

__all__ = ["Registry", "REFUSE", "lower", "snake_case"]

REFUSE = object()  # get(None) is an error for this namespace


def lower(name):
    return name.lower()


def snake_case(name):
    return to_snake_case(name)


def _identity(obj):
    return obj


class Registry:
    """The get / serialize / deserialize of one namespace (see the module docstring).

    kind: what the namespace holds, for messages ("loss function", "initializer", ...).
    module: Keras's public module written in function records ("keras.losses").
    table: {name: class or function}; base: the namespace's base class (or None).
    folds: the name forms tried after the name as given; default: what get(None) returns.
    make(cls, name): builds a class given by name (default: cls()); wrap(fn): what get makes of
    a callable (default: fn itself); functions_by_name: serialize writes names only.
    hint: the end of the unknown-name message ("pass a callable")."""

    def __init__(self, kind, module, table, base=None, folds=(), default=None, make=None,
                 wrap=_identity, functions_by_name=False, hint="pass an instance"):
        self.kind, self.module, self.table, self.base = kind, module, table, base
        self.folds, self.default, self.hint = folds, default, hint
        self.make = make or (lambda cls, name: cls())
        self.wrap, self.functions_by_name = wrap, functions_by_name

    # -- get ------------------------------------------------------------------------------------
    def get(self, identifier):
        """The object `identifier` names (see keras/registry.py)."""
        if identifier is None:
            if self.default is REFUSE:
                raise TypeError(f"Could not interpret {self.kind} identifier: None.")
            return self.default
        if isinstance(identifier, str):
            return self.from_name(identifier)
        found = self.deserialize(identifier) if isinstance(identifier, dict) else identifier
        if self.base is not None and isinstance(found, self.base):
            return found
        if self._is_class(found):
            return found()
        if callable(found):
            return self.wrap(found)
        raise TypeError(f"Could not interpret {self.kind} identifier: {identifier!r}.")

    def _is_class(self, obj):
        return self.base is not None and inspect.isclass(obj) and issubclass(obj, self.base)

    def from_name(self, name):
        """The table's object for `name` (a class built by `make`); ValueError if unknown."""
        for key in (name,) + tuple(fold(name) for fold in self.folds):
            if key in self.table:
                return self._built(self.table[key], name)
        raise ValueError(f"Unknown {self.kind}: {name!r}. Known: "
                         f"{', '.join(sorted(self.table))}, or {self.hint}.")

    def _built(self, obj, name):
        return self.make(obj, name) if inspect.isclass(obj) else obj

    # -- serialize ------------------------------------------------------------------------------
    def serialize(self, obj):
        """Keras 3's serialized form of `obj` (see keras/registry.py)."""
        if self.functions_by_name:
            return self._name_of(obj)
        if inspect.isfunction(obj) and any(known is obj for known in self.table.values()):
            return {"module": self.module, "class_name": "function", "config": obj.__name__,
                    "registered_name": obj.__name__}
        return serialize_keras_object(obj)

    def _name_of(self, obj):
        """The first name the table lists `obj` under, else its __name__ (or repr)."""
        for name, known in self.table.items():
            if known is obj:
                return name
        return getattr(obj, "__name__", repr(obj))

    # -- deserialize ----------------------------------------------------------------------------
    def deserialize(self, config, custom_objects=None):
        """The object of a serialized form (see keras/registry.py)."""
        if isinstance(config, dict) and config.get("class_name") == "function":
            return self._function(config, custom_objects)
        if isinstance(config, str):
            found = get_registered_object(config, custom_objects)
            return self.from_name(config) if found is None else self._built(found, config)
        return deserialize_keras_object(config, custom_objects=custom_objects,
                                        module_objects=self.table,
                                        printable_module_name=self.kind)

    def _function(self, record, custom_objects):
        for name in (record.get("registered_name"), record.get("config")):
            found = get_registered_object(name, custom_objects) if name else None
            if found is not None:
                return found
        return self.from_name(record.get("config"))
