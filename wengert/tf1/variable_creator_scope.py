"""`tf.variable_creator_scope` and `tf.compat.v1.variable_creator_scope`: inside the block,
every variable made (tf.Variable, tf.compat.v1.Variable, get_variable, Keras weights) is made
by `variable_creator(next_creator, **kwargs)`, which may change the arguments, call
`next_creator(**kwargs)` for the variable the scopes further out (and finally the default)
would make, or return something else. Scopes nest: the innermost creator runs first.

The creator sees TensorFlow's keyword arguments, each present with TensorFlow's default when the
caller left it out: initial_value, trainable, validate_shape, caching_device, name,
variable_def, dtype, import_scope, constraint, synchronization, aggregation, shape and
experimental_enable_variable_lifting, and for the TF 1 scope also collections, expected_shape
and use_resource. Arguments the creator passes on unchanged at those defaults are dropped again
before the variable is made, so the default construction is the one it would have been.
The stack itself is framework/variable_creators.py.
"""
import contextlib

from ..framework.variable_creators import creator_scope
from ..framework.variable_enums import VariableAggregation, VariableSynchronization

__all__ = ["variable_creator_scope", "variable_creator_scope_v1"]

_V2_DEFAULTS = {"initial_value": None, "trainable": None, "validate_shape": True,
                "caching_device": None, "name": None, "variable_def": None, "dtype": None,
                "import_scope": None, "constraint": None,
                "synchronization": VariableSynchronization.AUTO,
                "aggregation": VariableAggregation.NONE, "shape": None,
                "experimental_enable_variable_lifting": None}
_V1_DEFAULTS = {**_V2_DEFAULTS, "collections": None, "expected_shape": None,
                "use_resource": None}


def _with_defaults(variable_creator, defaults):
    if not callable(variable_creator):
        raise TypeError(f"variable_creator_scope: variable_creator must be callable, got "
                        f"{variable_creator!r}.")

    def creator(next_creator, **given):
        full = {**defaults, **given}

        def forward(**kwargs):
            kept = {k: v for k, v in kwargs.items()
                    if k in given or k not in full or v is not full[k]}
            return next_creator(**kept)
        return variable_creator(forward, **full)
    return creator


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """Make the block's variables through `variable_creator(next_creator, **kwargs)`."""
    with creator_scope(_with_defaults(variable_creator, _V2_DEFAULTS)):
        yield


@contextlib.contextmanager
def variable_creator_scope_v1(variable_creator):
    """TensorFlow 1's variable_creator_scope: its creators also see collections,
    expected_shape and use_resource."""
    with creator_scope(_with_defaults(variable_creator, _V1_DEFAULTS)):
        yield
