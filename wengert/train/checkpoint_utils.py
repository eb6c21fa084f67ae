"""Reading TF 1 checkpoints by name outside a Saver (`compat.v1.train`): NewCheckpointReader,
load_variable, init_from_checkpoint (warm-starting variables from another model's checkpoint)
and checkpoints_iterator (following a training job's checkpoints from an evaluator).

`init_from_checkpoint(ckpt, assignment_map)` changes the initializers of existing variables so
that `global_variables_initializer()` (made afterwards) loads checkpoint values instead of the
initial values. The map pairs checkpoint names with variables: {"old/w": "new/w"} (a
get_variable name), {"old/w": variable}, or whole scopes {"old_scope/": "new_scope/"} (each
variable under new_scope/ takes the tensor of the same relative name under old_scope/; "/" is
the root on either side). Every named tensor and shape is checked first, against
the checkpoint's table; the values are read when the call is made (TensorFlow reads them when
the initializer runs). Eagerly the variables are assigned at once.
`checkpoints_iterator` yields each new latest checkpoint of a directory, waiting at least
`min_interval_secs` between them and giving up after `timeout` seconds without a new one
(unless `timeout_fn` says to keep waiting).
"""
import logging
import time

import numpy as np

from ..framework.context import state
from ..framework.variables import ASSIGN, Variable
from ..graph.variable_store import variable_store
from ..graph.variables import GraphVariable
from ..saved_model.checkpoint_format import CheckpointReader
from .checkpoint_state import latest_checkpoint

__all__ = ["NewCheckpointReader", "load_variable", "init_from_checkpoint",
           "checkpoints_iterator"]

_LOG = logging.getLogger("tensorflow")


def NewCheckpointReader(filepattern):  # noqa: N802 - TensorFlow's name
    """A CheckpointReader for the checkpoint at `filepattern` (a path prefix or directory)."""
    return CheckpointReader(filepattern)


def load_variable(ckpt_dir_or_file, name):
    """The value of tensor `name` (":0" dropped) in a checkpoint or a directory's latest."""
    if name.endswith(":0"):
        name = name[:-2]
    return CheckpointReader(ckpt_dir_or_file).get_tensor(name)


def _targets(assignment_map, shapes, ckpt, store):
    """[(variable, checkpoint key)] for the whole map, checked before anything changes."""
    items = assignment_map.items() if isinstance(assignment_map, dict) else assignment_map
    pairs = []
    for key, current in sorted(items, key=lambda pair: pair[0]):
        var = current if isinstance(current, Variable) else store.get(current)
        if var is not None:
            pairs.append((var, key))
            continue
        pairs += _scope_pairs(key, current, shapes, ckpt, store)
    for var, key in pairs:
        if key not in shapes:
            raise ValueError(f"Tensor {key} is not found in {ckpt} checkpoint {shapes}")
        if not var.shape.is_compatible_with(shapes[key]):
            raise ValueError(f"Shape of variable {var.name} ({var.shape}) doesn't match with "
                             f"shape of tensor {key} ({shapes[key]}) from checkpoint reader.")
    return pairs


def _scope_pairs(key, current, shapes, ckpt, store):
    scopes = current[:current.rindex("/")] if "/" in current else ""
    if not key.endswith("/"):
        raise ValueError(f"Assignment map with scope only name {scopes} should map to scope "
                         f"only {key}. Should be 'scope/': 'other_scope/'.")
    pairs = []
    for var_name in sorted(store):
        if scopes and not var_name.startswith(scopes + "/"):
            continue
        tensor = var_name[len(scopes):]
        if current != "/":
            tensor = tensor[1:]
        if key != "/":
            tensor = key + tensor
        tensor = tensor[:-1] if tensor.endswith("/") else tensor
        if tensor not in shapes:
            raise ValueError(f"Tensor {tensor} ({var_name[len(scopes) + 1:]} in {key}) is not "
                             f"found in {ckpt} checkpoint")
        pairs.append((store[var_name], tensor))
    return pairs


def _initialize_from(var, value):
    if not isinstance(var, GraphVariable):
        var.assign(value)
        return
    graph = var.graph
    with graph.as_default(), graph.name_scope(var.op.name + "/"), \
            graph.control_dependencies(None):
        value = graph.constant(np.asarray(value, var.dtype.as_numpy_dtype),
                               "checkpoint_initializer")
        var._initializer = graph.create_op(ASSIGN, (var, value), {}, "Assign").op
    var._initial_value = value


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Make the mapped variables start from the checkpoint's values (see the module
    docstring)."""
    reader = CheckpointReader(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    store = variable_store(state.graph).variables
    pairs = _targets(assignment_map, shapes, ckpt_dir_or_file, store)
    values = reader.get_tensors(sorted({key for _, key in pairs}))
    for var, key in pairs:
        _initialize_from(var, values[key])
        _LOG.debug("Initialize variable %s from checkpoint %s with %s", var.name,
                   ckpt_dir_or_file, key)


def _wait_for_new(checkpoint_dir, last, timeout, seconds_to_sleep=1.0):
    stop = time.time() + timeout if timeout is not None else None
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            return path
        if stop is not None and time.time() + seconds_to_sleep > stop:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new latest checkpoint of `checkpoint_dir` (see the module docstring)."""
    path = None
    while True:
        new = _wait_for_new(checkpoint_dir, path, timeout)
        if new is not None:
            start = time.time()
            path = new
            yield path
            remaining = start + min_interval_secs - time.time()
            if remaining > 0:
                time.sleep(remaining)
        elif timeout_fn is None:
            _LOG.info("Timed-out waiting for a checkpoint (without timeout_fn).")
            return
        if timeout_fn is not None and timeout_fn():
            _LOG.info("Done. No new checkpoints will be generated.")
            return
