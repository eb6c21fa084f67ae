"""TensorFlow 1's `create_partitioned_variables(shape, slicing, initializer)`: one variable
split into pieces along the axes `slicing` names (slicing[k] pieces along axis k, at most one
axis split), made by `get_variable` with a partitioner that returns `slicing`, and returned as
the list of its parts, named "<name>/part_<i>" under the current variable scope (name defaults
to a unique "PartitionedVariable")."""
from ..framework import dtypes
from ..graph.variable_scope import get_variable, get_variable_scope, variable_scope

__all__ = ["create_partitioned_variables"]


def create_partitioned_variables(shape, slicing, initializer, dtype=dtypes.float32,
                                 trainable=True, collections=None, name=None, reuse=None):
    """The parts of a new (or, with reuse, the existing) partitioned variable."""
    shape, slicing = list(shape), list(slicing)
    if len(shape) != len(slicing):
        raise ValueError(f"The 'shape' and 'slicing' of a partitioned Variable must have the "
                         f"length: shape: {shape}, slicing: {slicing}")
    if len(shape) < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1: shape: {shape}")
    with variable_scope(name, default_name="PartitionedVariable", reuse=reuse) as scope:
        full_name = scope.name
    leaf = full_name.rsplit("/", 1)[-1]
    with variable_scope(get_variable_scope(), reuse=reuse):
        variable = get_variable(leaf, shape=shape, dtype=dtype, initializer=initializer,
                                trainable=trainable, collections=collections,
                                partitioner=lambda **_: slicing)
    return list(variable)
