"""`wengert.compat.v1.initializers`: TensorFlow 1's initializer classes by their short names
(`tf.compat.v1.initializers.zeros` is `zeros_initializer`, each taking its dtype when made) and
the ops that initialize variables and tables (`variables(var_list)`, `global_variables()`...)."""
from ...graph.variables import (global_variables_initializer as global_variables,
                                local_variables_initializer as local_variables,
                                variables_initializer as variables)
from ...ops.random.v1_initializers import (constant_initializer as constant,
                                           glorot_normal_initializer as glorot_normal,
                                           glorot_uniform_initializer as glorot_uniform,
                                           ones_initializer as ones,
                                           random_normal_initializer as random_normal,
                                           random_uniform_initializer as random_uniform,
                                           truncated_normal_initializer as truncated_normal,
                                           variance_scaling_initializer as variance_scaling,
                                           zeros_initializer as zeros)
from ...tf1.behaviour import tables_initializer
from ...tf1.initializers import (he_normal, he_uniform, identity_initializer as identity,
                                 lecun_normal, lecun_uniform,
                                 orthogonal_initializer as orthogonal,
                                 uniform_unit_scaling_initializer as uniform_unit_scaling)

__all__ = ["constant", "global_variables", "glorot_normal", "glorot_uniform", "he_normal",
           "he_uniform", "identity", "lecun_normal", "lecun_uniform", "local_variables", "ones",
           "orthogonal", "random_normal", "random_uniform", "tables_initializer",
           "truncated_normal", "uniform_unit_scaling", "variables", "variance_scaling", "zeros"]
