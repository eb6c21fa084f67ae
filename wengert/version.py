"""`tf.version`: the versions this build reports. wengert follows TensorFlow 2.21's public API,
so `VERSION` names that API version (code that branches on TensorFlow's version takes the
branch written for it); `GIT_VERSION` names wengert's own release, `COMPILER_VERSION` the
compiler of the Python running it, and the GraphDef versions are those TensorFlow 2.21 writes
and accepts."""
import platform

__all__ = ["COMPILER_VERSION", "GIT_VERSION", "GRAPH_DEF_VERSION",
           "GRAPH_DEF_VERSION_MIN_CONSUMER", "GRAPH_DEF_VERSION_MIN_PRODUCER", "VERSION"]

VERSION = "2.21.0"
GIT_VERSION = "wengert-0.1.0"
COMPILER_VERSION = platform.python_compiler()
GRAPH_DEF_VERSION = 2474
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
