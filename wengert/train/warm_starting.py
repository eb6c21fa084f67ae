"""`tf.compat.v1.train.warm_start`: start a new model's variables from a checkpoint of an older
one (TensorFlow's warm starting), in the graph being built.

The variables warm-started are: for a string (default ".*") or None, the trainable variables
whose names the regular expression matches at their start; for a list of strings, the global
variables any of them matches; for a list of variables, those. Each takes the checkpoint's value
of the same name, or of the name `var_name_to_prev_var_name` maps it to, through
init_from_checkpoint (checkpoint_utils.py): its initializer becomes that value, so the first run
of the initializers starts from the checkpoint, and names or shapes the checkpoint lacks are
ValueErrors before any variable changes. A prev-name entry that names no warm-started variable
is a ValueError, as in TensorFlow. Vocabulary remapping (var_name_to_vocab_info) is not built.
"""
from ..framework.variables import Variable, variable_op_name
from ..graph.collections import GraphKeys, get_collection
from .checkpoint_utils import init_from_checkpoint

__all__ = ["warm_start"]


def _variables(vars_to_warm_start):
    if vars_to_warm_start is None or isinstance(vars_to_warm_start, str):
        return get_collection(GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
    if isinstance(vars_to_warm_start, (list, tuple)):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            found = []
            for pattern in vars_to_warm_start:
                found += [v for v in get_collection(GraphKeys.GLOBAL_VARIABLES, scope=pattern)
                          if v not in found]
            return found
        if all(isinstance(v, Variable) for v in vars_to_warm_start):
            return list(vars_to_warm_start)
    raise ValueError(f"If `vars_to_warm_start` is a list, it must be all `Variable` or all "
                     f"`str`.  Given types are {[type(v) for v in vars_to_warm_start]}")


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Make the chosen variables start from `ckpt_to_initialize_from` (a checkpoint file or a
    directory holding one); see the module docstring."""
    if var_name_to_vocab_info:
        raise NotImplementedError(f"warm_start: var_name_to_vocab_info (for "
                                  f"{sorted(var_name_to_vocab_info)}) is not supported; warm "
                                  f"start those variables without vocabulary remapping.")
    renames = dict(var_name_to_prev_var_name or {})
    assignment, used = {}, set()
    for var in _variables(vars_to_warm_start):
        name = variable_op_name(var)
        used.add(name)
        assignment[renames.get(name, name)] = var
    unused = sorted(set(renames) - used)
    if unused:
        raise ValueError(f"You provided the following variables in var_name_to_prev_var_name "
                         f"that were not used: {{{', '.join(map(repr, unused))}}}.  Perhaps you misspelled them?  Here is "
                         f"the list of viable variable names: {sorted(used)}")
    if assignment:
        init_from_checkpoint(ckpt_to_initialize_from, assignment)
