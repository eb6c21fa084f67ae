"""TensorFlow 1's `cond`, `while_loop`, `gradients` and `device`, as `tf.compat.v1` has them:
TensorFlow 2's (control_flow/, autodiff/gradients.py, framework/device.py) under their TF 1
signatures.

    cond(pred, true_fn, false_fn, strict, name, fn1, fn2)
        fn1/fn2 are the old names of the branches. Unless `strict`, a branch's result that is a
        one-element list or tuple is returned as that element when the branches run eagerly
        (and with TF 1's control flow, `disable_control_flow_v2`), as TensorFlow does; with
        control flow v2 in a graph TensorFlow keeps the list, and so does wengert.
    while_loop(cond, body, loop_vars, shape_invariants, parallel_iterations, back_prop,
               swap_memory, name, maximum_iterations, return_same_structure)
        unless return_same_structure, loop variables that flatten to one tensor come back as
        that tensor rather than in their structure.
    gradients(ys, xs, grad_ys, name, colocate_gradients_with_ops, gate_gradients, ...)
        colocate_gradients_with_ops places each gradient op on its forward op's device: with
        one device (the CPU) it changes nothing, in TensorFlow as here.
    device(device_name_or_function)"""
from ..autodiff.gradients import gradients as _gradients
from ..control_flow.cond import cond as _cond
from ..control_flow.while_loop import while_loop as _while_loop
from ..framework.device import device as _device
from ..framework.context import executing_eagerly
from ..util import nest
from .behaviour import control_flow_v2_enabled

__all__ = ["cond", "device", "gradients", "while_loop"]


def _branch(new_name, new, old_name, old):
    if old is not None:
        if new is not None:
            raise TypeError(f"cond(): '{new_name}' and '{old_name}' may not be set "
                            f"simultaneously.")
        return old
    if new is None:
        raise TypeError(f"cond(): '{new_name}' argument required")
    return new


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """true_fn() if pred else false_fn() (see the module for fn1, fn2 and strict)."""
    true_fn = _branch("true_fn", true_fn, "fn1", fn1)
    false_fn = _branch("false_fn", false_fn, "fn2", fn2)
    result = _cond(pred, true_fn, false_fn, name)
    unpack = executing_eagerly() or not control_flow_v2_enabled()
    if not strict and unpack and isinstance(result, (list, tuple)) and len(result) == 1:
        return result[0]
    return result


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, name=None, maximum_iterations=None,
               return_same_structure=False):
    """Repeat `loop_vars = body(*loop_vars)` while cond(*loop_vars) (see the module)."""
    result = _while_loop(cond, body, loop_vars, shape_invariants, parallel_iterations, back_prop,
                         swap_memory, maximum_iterations, name)
    if return_same_structure:
        return result
    flat = nest.flatten(result, expand_composites=True)
    return flat[0] if len(flat) == 1 else result


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """The symbolic gradients of sum(ys) with respect to xs, added to the graph."""
    del colocate_gradients_with_ops  # one device (see the module)
    return _gradients(ys, xs, grad_ys, name, gate_gradients, aggregation_method, stop_gradients,
                      unconnected_gradients)


def device(device_name_or_function):
    """`with tf.device(...)`: ops placed on a device (the CPU is wengert's only one)."""
    return _device(device_name_or_function)
