"""Sparse updates: applying an IndexedSlices gradient (the gradient of gather / embedding_lookup)
to only the rows it touches, as Keras does.

`deduplicate` sums the values of repeated indices, so every row appears once; an optimizer's
`_update_step_sparse(slices, variable, lr)` uses it, then updates the touched rows of the variable
with `scatter_add` (var[rows] += values), in place unless a tensor shares the variable's array.
Slots such as momentum or Adam's moments decay densely and then receive the new gradient rows by
scatter, which is exactly the dense update's result. Both run eagerly; inside a traced function
the optimizer densifies sparse gradients instead (graph variables have no scatter updates).
"""
import numpy as np

from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import array_of, convert_to_tensor

__all__ = ["deduplicate", "scatter_add", "squared_rows"]


def deduplicate(slices):
    """IndexedSlices with each index once, the values of repeated indices summed (eager)."""
    indices = np.asarray(array_of(slices.indices)).reshape(-1)
    unique, position = np.unique(indices, return_inverse=True)
    if len(unique) == len(indices):
        return slices
    values = array_of(slices.values)
    summed = np.zeros((len(unique),) + values.shape[1:], values.dtype)
    np.add.at(summed, position.reshape(-1), values)
    return IndexedSlices._of(convert_to_tensor(summed), convert_to_tensor(unique),
                             slices._static, slices._like)


def squared_rows(slices):
    """The dense sum, per row, of the squares of an IndexedSlices gradient's pieces: g1^2 + g2^2
    for a row that comes twice, where squaring the dense gradient gives (g1 + g2)^2. Keras 3's
    optimizers square the pieces (an op on IndexedSlices acts on its values), so the squared
    slots of Adam, RMSprop and Adagrad take this. Eager and in graphs."""
    return IndexedSlices._of(slices.values * slices.values, slices.indices, slices._static,
                             slices._like)._dense()


def scatter_add(var, slices):
    """var[indices] += values for the rows of de-duplicated IndexedSlices only (eager), in
    place unless a tensor shares the variable's array (then on a copy: tensors never change)."""
    var._scatter_add_rows(array_of(slices.indices), array_of(slices.values))
