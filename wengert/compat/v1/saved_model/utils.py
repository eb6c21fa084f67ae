"""`wengert.compat.v1.saved_model.utils`: a graph tensor as a signature's TensorInfo and back
(wengert/tf1/signature_defs.py)."""
from ....tf1.signature_defs import build_tensor_info, get_tensor_from_tensor_info

__all__ = ["build_tensor_info", "get_tensor_from_tensor_info"]
