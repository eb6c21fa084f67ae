"""The options TensorFlow's loops take besides their functions (while_loop, map_fn, scan,
foldl, foldr), checked and applied in one place:

    parallel_iterations   how many iterations TensorFlow's executor overlaps: a positive integer
                          (TypeError otherwise, as TensorFlow's); no result depends on it
    swap_memory           GPU-to-host swapping of the values a loop keeps for its gradient:
                          nothing to swap on a CPU, in TensorFlow as here
    back_prop=False       the outputs carry no gradient (stop_gradient) while a graph or function
                          is built; eagerly TensorFlow 2 ignores it, and so does this
"""
import numpy as np

from ..framework.context import state
from ..ops.array_ops import stop_gradient
from ..util import nest

__all__ = ["check_loop_options", "without_gradient"]


def check_loop_options(what, parallel_iterations, swap_memory, zero_is_default=False):
    """TensorFlow's check of parallel_iterations (map_fn reads 0 and None as its default).
    Neither option changes a result: parallel_iterations bounds how many iterations
    TensorFlow's executor overlaps, and swap_memory moves a loop's kept values from GPU to host
    memory; on wengert's one CPU both change nothing, as on TensorFlow's CPU."""
    del swap_memory
    if parallel_iterations is None or (zero_is_default and parallel_iterations == 0):
        return
    if not isinstance(parallel_iterations, (int, np.integer)) or parallel_iterations < 1:
        raise TypeError(f"{what}: 'parallel_iterations' must be a positive integer, got "
                        f"{parallel_iterations!r}.")


def without_gradient(outputs, back_prop):
    """back_prop=False: the outputs carry no gradient while a graph or function is built
    (TensorFlow's while_v2 stops it there); eagerly TensorFlow ignores it, and so does this."""
    if back_prop or state.graph is None:
        return outputs
    return nest.map_structure(stop_gradient, outputs)
