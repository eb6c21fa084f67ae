"""Namespaces whose heavy members load on first use (PEP 562's module `__getattr__`).

`import wengert` should not pay for Keras, MPI or ONNX: a namespace module names such members
in a table, `{attribute: "module"}` or `{attribute: "module:name"}` (module paths relative to the
namespace's package; `name` may be a dotted path of attributes, "wengert:linalg.cholesky"), and assigns what `lazy_attributes` returns to its own `__getattr__` and
`__dir__`. The first access imports the module, stores the value in the namespace (so later
accesses are ordinary attribute reads) and returns it; `dir()` and tab completion list the lazy
names before they load. A namespace may also name a `fallback` module whose attributes it shows
as its own (tf.compat.v1 holds every name of tf.).
"""
import importlib

__all__ = ["lazy_attributes"]


def lazy_attributes(namespace, table, fallback=None):
    """(__getattr__, __dir__) for the module whose globals are `namespace`."""
    package = namespace.get("__package__") or namespace["__name__"]

    def __getattr__(name):
        target = table.get(name)
        if target is None:
            if fallback is not None and not name.startswith("__"):
                value = getattr(importlib.import_module(fallback), name, _MISSING)
                if value is not _MISSING:
                    return value
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        module_name, _, attribute = target.partition(":")
        module = importlib.import_module(module_name, package)
        value = module
        for part in attribute.split(".") if attribute else ():
            value = getattr(value, part)
        namespace[name] = value
        return value

    def __dir__():
        names = set(namespace) | set(table)
        if fallback is not None:
            names |= {n for n in dir(importlib.import_module(fallback)) if not n.startswith("_")}
        return sorted(names)

    return __getattr__, __dir__


_MISSING = object()
