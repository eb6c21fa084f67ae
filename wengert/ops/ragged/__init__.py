"""Ragged tensors: the ops over framework/ragged_tensor.py's RaggedTensor (row partitions,
factories, conversions, indexing, elementwise dispatch, reductions), and the install of its
methods (methods.py), which importing this package runs."""
from . import methods  # noqa: F401
