"""`CompositeTensor`: what the tensors made of several tensors share (TensorFlow's name for the
family): IndexedSlices (rows of a dense tensor) and SparseTensor (its nonzero entries).

Each stores its entries as one dense tensor `values` beside tensors that say where the entries
belong; so its dtype is its values' dtype, and it belongs to the graph its values belong to
(None eagerly). Ops take a composite apart into its tensors; none of them sees the class.
"""

__all__ = ["CompositeTensor"]


class CompositeTensor:
    """A tensor stored as several tensors, its entries in `values` (set by the subclass)."""

    __slots__ = ("_values",)

    @property
    def values(self):
        return self._values

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def graph(self):
        return getattr(self._values, "graph", None)
