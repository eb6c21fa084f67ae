"""Sparse tensors: conversions between `SparseTensor` (framework/sparse_tensor.py) and dense tensors."""
