"""The initializer, regularizer and constraint that a layer's arguments give each of its weights.

A Keras layer takes three arguments for each of its weights, named after the weight: `kernel`
has `kernel_initializer`, `kernel_regularizer` and `kernel_constraint` (`bias`, `gamma`,
`recurrent_kernel` through `recurrent_...`, and so on). The layer keeps them resolved
(initializers.get, regularizers.get and constraints.get take a name, a config dict, an object
or None) in attributes of the same names, makes the weight with them, and lists them serialized
in its config: the initializers of all its weights first, then their regularizers, then their
constraints, in Keras's order. `set_weight_options`, `add_weight_with_options` and
`weight_options_config` do these three steps for any layer and any of its weights.
"""
from .. import constraints, initializers, regularizers
from ..serialization import serialize_keras_object

_KINDS = (("initializer", initializers), ("regularizer", regularizers),
          ("constraint", constraints))


def set_weight_options(layer, weight, initializer, regularizer=None, constraint=None):
    """Sets `layer.<weight>_initializer`, `<weight>_regularizer` and `<weight>_constraint`, each
    resolved by its module's `get`."""
    for (kind, module), value in zip(_KINDS, (initializer, regularizer, constraint)):
        setattr(layer, f"{weight}_{kind}", module.get(value))


def add_weight_with_options(layer, name, shape, options=None):
    """layer.add_weight(name, shape) with the initializer, regularizer and constraint that
    `set_weight_options` set for `options` (by default the weight's own name)."""
    options = options or name
    return layer.add_weight(name, shape, initializer=getattr(layer, f"{options}_initializer"),
                            regularizer=getattr(layer, f"{options}_regularizer"),
                            constraint=getattr(layer, f"{options}_constraint"))


def weight_options_config(layer, *weights):
    """The config entries of the weights' options, serialized: every weight's initializer, then
    every weight's regularizer, then every weight's constraint (Keras's order)."""
    return {f"{weight}_{kind}": serialize_keras_object(getattr(layer, f"{weight}_{kind}"))
            for kind, _ in _KINDS for weight in weights}
