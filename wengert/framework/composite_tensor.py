"""`CompositeTensor`: what the tensors made of several tensors share (TensorFlow's name for the
family): IndexedSlices (rows of a dense tensor) and SparseTensor (its nonzero entries).

Each stores its entries as one dense tensor `values` beside tensors that say where the entries
belong; so its dtype is its values' dtype, and it belongs to the graph its values belong to
(None eagerly). Ops take a composite apart into its tensors; none of them sees the class.
`consumers()` lists the graph's ops that read any of its tensors (none eagerly), as TF's.
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

    def consumers(self):
        """The ops of the graph being built that read this tensor's parts (none eagerly)."""
        graph = self.graph
        if graph is None:
            return []
        parts = {id(t) for t in (self.indices, self._values, getattr(self, "dense_shape", None))
                 if t is not None}
        return [op for op in graph.get_operations() if any(id(t) in parts for t in op.inputs)]
