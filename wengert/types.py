"""`tf.types`: the abstract types of TensorFlow's values and functions; `tf.types.experimental`
is tracing/trace_types.py (TraceType, ConcreteFunction, PolymorphicFunction, TensorLike, ...)."""
from .tracing import trace_types as experimental

__all__ = ["experimental"]
