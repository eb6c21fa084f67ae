"""Which wengert class a Keras config names: ("keras.layers", "LSTM") -> keras.layers.LSTM.

Keras 3 writes built-in objects with their public module ("keras.layers", "keras.initializers",
"keras.optimizers", ...), older files with private ones ("keras.src.layers.rnn.lstm"); both are
looked up by class name in the matching wengert namespace. Nothing is imported by name from a
file: only these tables are consulted.
"""
import importlib

__all__ = ["builtin_class"]

_NAMESPACES = (("keras.layers", "wengert.keras.layers"),
               ("keras.src.layers", "wengert.keras.layers"),
               ("keras.initializers", "wengert.keras.initializers"),
               ("keras.src.initializers", "wengert.keras.initializers"),
               ("keras.regularizers", "wengert.keras.regularizers"),
               ("keras.src.regularizers", "wengert.keras.regularizers"),
               ("keras.constraints", "wengert.keras.constraints"),
               ("keras.src.constraints", "wengert.keras.constraints"),
               ("keras.losses", "wengert.keras.losses"),
               ("keras.src.losses", "wengert.keras.losses"),
               ("keras.metrics", "wengert.keras.metrics"),
               ("keras.src.metrics", "wengert.keras.metrics"),
               ("keras.optimizers", "wengert.optimizers"),
               ("keras.src.optimizers", "wengert.optimizers"),
               ("keras.src.models", "wengert.keras.models"),
               ("keras.models", "wengert.keras.models"),
               ("keras.src.ops", "wengert.keras.saving.op_layers"),
               ("keras", "wengert.keras.models"))
_ALIASES = {"Functional": "Model"}
_SEARCH_ALL = ("wengert.keras.layers", "wengert.keras.models", "wengert.keras.initializers",
               "wengert.keras.regularizers", "wengert.keras.constraints")


def _lookup(module_name, class_name):
    module = importlib.import_module(module_name)
    found = getattr(module, _ALIASES.get(class_name, class_name), None)
    return found if isinstance(found, type) else None


def builtin_class(module, class_name):
    """The wengert class for a Keras (module, class_name), or None."""
    if module:
        for prefix, target in _NAMESPACES:
            if module == prefix or module.startswith(prefix + "."):
                found = _lookup(target, class_name)
                if found is not None:
                    return found
                break
    for target in _SEARCH_ALL:  # no (or an unknown) module: Keras 2 configs
        found = _lookup(target, class_name)
        if found is not None:
            return found
    return None
