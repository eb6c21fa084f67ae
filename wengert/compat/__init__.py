"""`wengert.compat`: TensorFlow's compatibility namespaces (`compat.v1` for TF 1 style code)."""
from . import v1
