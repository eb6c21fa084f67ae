"""Keras 3's object configs, read and written: what `get_config` dicts become in a `.keras` file.

An object is written as {"module", "class_name", "config", "registered_name"} (plus
"build_config" for a built layer): built-in Keras classes under their public module
("keras.layers", "keras.initializers", ...), a user's class under its Python module with its
registered name ("package>Name" when registered with `register_keras_serializable`, else the class
name). Activations and other functions are written by name. Nothing is ever evaluated when a
config is read: a class is looked up by name among `custom_objects`, the registered objects and
Keras's own tables, then built with `cls.from_config(config)`. A serialized Python lambda
(Lambda layers) is code: it is refused unless `safe_mode=False` is given, as Keras does; with
safe_mode=False its marshalled bytecode is loaded (the same Python version is needed).
"""
import base64
import inspect
import marshal
import sys
import threading
import types

import numpy as np

from .object_tables import builtin_class

__all__ = ["serialize_keras_object", "deserialize_keras_object", "register_keras_serializable",
           "get_registered_name", "get_registered_object", "CustomObjectScope",
           "custom_object_scope", "get_custom_objects", "SafeModeScope", "in_safe_mode"]

_REGISTERED = {}        # "package>Name" -> class or function
_REGISTERED_NAMES = {}  # id(class or function) -> "package>Name"
_PUBLIC_MODULES = (("wengert.keras.layers", "keras.layers"),
                   ("wengert.keras.initializers", "keras.initializers"),
                   ("wengert.keras.regularizers", "keras.regularizers"),
                   ("wengert.keras.constraints", "keras.constraints"),
                   ("wengert.keras.losses", "keras.losses"),
                   ("wengert.keras.metrics", "keras.metrics"),
                   ("wengert.optimizers", "keras.optimizers"),
                   ("wengert.keras.models", "keras"))
_BY_NAME_MODULES = ("wengert.keras.losses", "wengert.keras.metrics")


class _Scopes(threading.local):
    custom = ()        # stack of custom-object dicts (custom_object_scope)
    safe_mode = None   # the innermost SafeModeScope's value


_SCOPES = _Scopes()


# -- registration -------------------------------------------------------------------------------
def register_keras_serializable(package="Custom", name=None):
    """Class or function decorator: make it loadable by name ("package>name")."""
    def decorator(obj):
        key = f"{package}>{name or obj.__name__}"
        if inspect.isclass(obj) and not hasattr(obj, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() "
                             "method.")
        _REGISTERED[key] = obj
        _REGISTERED_NAMES[id(obj)] = key
        return obj
    return decorator


def get_registered_name(obj):
    """"package>Name" for a registered class or function, else its __name__."""
    return _REGISTERED_NAMES.get(id(obj), getattr(obj, "__name__", None))


def get_custom_objects():
    """The global dict of registered custom objects (name -> class or function)."""
    return _REGISTERED


class CustomObjectScope:
    """`with custom_object_scope({"MyLayer": MyLayer}):` makes those names loadable."""

    def __init__(self, *custom_objects):
        self.objects = {}
        for objects in custom_objects:
            self.objects.update(objects or {})

    def __enter__(self):
        _SCOPES.custom = _SCOPES.custom + (self.objects,)
        return self

    def __exit__(self, *exc):
        _SCOPES.custom = _SCOPES.custom[:-1]


custom_object_scope = CustomObjectScope


class SafeModeScope:
    """Loading in safe mode (the default) refuses serialized code (lambdas)."""

    def __init__(self, safe_mode=True):
        self.safe_mode, self._outer = safe_mode, None

    def __enter__(self):
        self._outer, _SCOPES.safe_mode = _SCOPES.safe_mode, self.safe_mode
        return self

    def __exit__(self, *exc):
        _SCOPES.safe_mode = self._outer


def in_safe_mode():
    return _SCOPES.safe_mode is not False


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The class or function called `name` among custom_objects, the custom-object scopes,
    the registered objects, then module_objects; None if unknown."""
    for table in ((custom_objects or {}),) + tuple(reversed(_SCOPES.custom)) + (_REGISTERED,):
        if name in table:
            return table[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None


# -- writing ------------------------------------------------------------------------------------
def _public_module(cls):
    module = cls.__module__
    for prefix, public in _PUBLIC_MODULES:
        if module.startswith(prefix):
            return public
    return None


def _function_config(fn):
    if fn.__name__ == "<lambda>":
        return dump_lambda(fn)
    module = fn.__module__
    if module == "wengert.keras.activations" or module.startswith(_BY_NAME_MODULES):
        return fn.__name__  # Keras's own activations, losses and metrics are written by name
    return {"module": module, "class_name": "function", "config": fn.__name__,
            "registered_name": get_registered_name(fn)}


def _plain(value):
    return serialize_keras_object(value) if value is not None else None


def serialize_keras_object(obj):
    """The config structure of `obj` (None, plain values, lists, dicts, Keras objects)."""
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [serialize_keras_object(x) for x in obj]
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return {"class_name": "__numpy__", "config": {"value": obj.tolist(),
                                                      "dtype": obj.dtype.name}}
    if hasattr(obj, "as_list") and hasattr(obj, "rank"):  # TensorShape
        return None if obj.rank is None else list(obj.as_list())
    if hasattr(obj, "as_numpy_dtype"):  # DType
        return obj.name
    if isinstance(obj, types.FunctionType):
        return _function_config(obj)
    if not hasattr(obj, "get_config"):
        raise TypeError(f"Cannot serialize object {obj!r} of type {type(obj).__name__}: to be "
                        "serializable, a class must implement the `get_config()` method.")
    cls = type(obj)
    inner = serialize_keras_object(obj.get_config())
    module = getattr(obj, "_keras_module", None) or _public_module(cls)
    class_name = getattr(obj, "_keras_class_name", cls.__name__)
    if module is not None and id(cls) not in _REGISTERED_NAMES:
        config = {"module": module, "class_name": class_name, "config": inner,
                  "registered_name": getattr(obj, "_keras_registered_name", None)}
    else:
        config = {"module": cls.__module__, "class_name": class_name, "config": inner,
                  "registered_name": get_registered_name(cls)}
    for key in ("build", "compile"):
        getter = getattr(obj, f"get_{key}_config", None)
        if getter is not None:
            value = getter()
            if value is not None:
                config[f"{key}_config"] = serialize_keras_object(value)
    return config


# -- reading ------------------------------------------------------------------------------------
def _special(config, safe_mode):
    """Values Keras writes as {"class_name": "__numpy__" / "__tuple__" / ...}."""
    name, inner = config.get("class_name"), config.get("config")
    if name in ("__numpy__", "__tensor__"):
        return True, np.asarray(inner["value"], dtype=inner["dtype"])
    if name == "__tuple__":
        return True, tuple(deserialize_keras_object(v) for v in inner["value"])
    if name == "__bytes__":
        return True, inner["value"].encode("utf-8")
    if name == "__ellipsis__":
        return True, Ellipsis
    if name == "__slice__":
        return True, slice(inner["start"], inner["stop"], inner["step"])
    if name == "__lambda__":
        value = inner["value"] if "value" in inner else [inner.get("code"),
                                                          inner.get("defaults"),
                                                          inner.get("closure")]
        return True, _load_lambda(value, safe_mode)
    return False, None


def _load_lambda(value, safe_mode):
    if safe_mode:
        raise ValueError(
            "Requested the deserialization of a Python lambda. This carries a potential risk "
            "of arbitrary code execution and thus it is disallowed by default. If you trust "
            "the source of the artifact, pass `safe_mode=False` to the loading function.")
    code, defaults, closure = (list(value) + [None, None])[:3]
    raw = base64.b64decode(code.encode("ascii"))
    fn_code = marshal.loads(raw)  # noqa: S302 - only with safe_mode=False, as Keras

    def cell(v):
        return (lambda: v).__closure__[0]
    cells = tuple(cell(v) for v in closure) if closure else None
    names = {"__builtins__": __builtins__, "np": np}
    top = sys.modules.get("wengert")  # the loaded package, for lambdas that name tf / keras
    if top is not None:
        names.update(tf=top, keras=getattr(top, "keras", None))
    return types.FunctionType(fn_code, names, fn_code.co_name,
                              tuple(defaults) if defaults else None, cells)


def dump_lambda(fn):
    """Keras's config of a Python lambda (its marshalled code), as Lambda layers write it."""
    code = base64.b64encode(marshal.dumps(fn.__code__)).decode("ascii")
    closure = [c.cell_contents for c in fn.__closure__] if fn.__closure__ else None
    return {"class_name": "__lambda__",
            "config": {"code": code, "defaults": _plain(fn.__defaults__),
                       "closure": _plain(closure)}}


def deserialize_keras_object(config, custom_objects=None, safe_mode=True, module_objects=None,
                             printable_module_name="object", **kwargs):
    """Rebuild an object from its config (a name or a {"class_name", "config", ...} dict)."""
    safe = safe_mode if _SCOPES.safe_mode is None else _SCOPES.safe_mode
    if config is None or isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, (list, tuple)):
        return [deserialize_keras_object(c, custom_objects, safe_mode, module_objects)
                for c in config]
    if isinstance(config, str):
        found = get_registered_object(config, custom_objects, module_objects)
        if found is None:
            raise ValueError(f"Unknown {printable_module_name}: {config!r}. Please ensure you "
                             "are using a `keras.utils.custom_object_scope` and that this "
                             "object is included in the scope.")
        return found() if inspect.isclass(found) else found
    if not isinstance(config, dict) or "class_name" not in config:
        return config
    handled, value = _special(config, safe)
    if handled:
        return value
    class_name, inner = config["class_name"], config.get("config")
    if class_name == "function":
        name = config.get("registered_name") or inner
        fn = get_registered_object(name, custom_objects, module_objects) or \
            get_registered_object(inner, custom_objects, module_objects)
        if fn is None:
            raise TypeError(f"Could not locate function '{inner}'. Make sure custom classes "
                            "and functions are decorated with "
                            "`@keras.saving.register_keras_serializable()`, or pass them in "
                            "`custom_objects`.")
        return fn
    cls = _find_class(config, custom_objects, module_objects)
    if cls is None:
        raise TypeError(f"Could not locate class '{class_name}'. Make sure custom classes are "
                        "decorated with `@keras.saving.register_keras_serializable()` or pass "
                        f"them in `custom_objects`. Full object config: {config}")
    with SafeModeScope(safe):
        obj = _from_config(cls, inner or {}, custom_objects)
        build_config = config.get("build_config")
        if build_config and hasattr(obj, "build_from_config"):
            obj.build_from_config(build_config)
    return obj


def _find_class(config, custom_objects, module_objects):
    class_name = config["class_name"]
    for name in (config.get("registered_name"), class_name):
        if name:
            found = get_registered_object(name, custom_objects, None)
            if found is not None:
                return found
    if module_objects and class_name in module_objects:
        return module_objects[class_name]
    return builtin_class(config.get("module"), class_name)


def _from_config(cls, inner, custom_objects):
    if not hasattr(cls, "from_config"):
        return cls(**inner)
    params = inspect.signature(cls.from_config).parameters
    if "custom_objects" in params:
        return cls.from_config(inner, custom_objects=custom_objects)
    with CustomObjectScope(custom_objects or {}):
        return cls.from_config(inner)
