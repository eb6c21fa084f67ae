"""`wengert.raw_ops`: TensorFlow's `tf.raw_ops`, every TensorFlow op wengert declares under its op
type name, called with TensorFlow's keyword arguments only: `tf.raw_ops.AddV2(x=a, y=b)`.

The functions are generated from the op registry (framework/raw_ops.py): each OpDef holds
TensorFlow's argument names for its op, and the mapping onto its inputs and attributes where they
differ; wengert's own ops (SumToShape, WhileHistoryGet) are not here.
"""
# the families whose ops `import wengert` alone may not have loaded
from . import control_flow as _control_flow, debugging as _debugging  # noqa: F401
from . import graph as _graph, summary as _summary  # noqa: F401
from .ops.io import collectives as _collectives, iterators as _iterators  # noqa: F401
from .ops.io import byte_codecs as _byte_codecs, csv_parsing as _csv_parsing  # noqa: F401
from .ops.io import count_up_to as _count_up_to, queues as _queues  # noqa: F401
from .ops.io import accumulators as _accumulators  # noqa: F401
from .ops.io import readers as _readers  # noqa: F401
from .control_flow import critical_section as _critical_section  # noqa: F401
from .ops.random import keyed_raw_ops as _keyed_raw_ops  # noqa: F401
from .ops.io import lookup_tables as _lookup_tables  # noqa: F401
from .ops.sparse import sets as _sets  # noqa: F401
from .ops.io import json_example as _json_example, wav as _wav  # noqa: F401
from .ops.sparse import serialization as _serialization  # noqa: F401
from .ops.io import tf1_print as _tf1_print, example_parsing as _example_parsing  # noqa: F401
from .ops.io import sequence_example_parsing as _sequence_example_parsing  # noqa: F401
from .ops.nn.rnn import gru as _gru, lstm as _lstm  # noqa: F401
from .graph import placeholder_with_default as _placeholder_with_default  # noqa: F401
from .graph import variables as _variables, variable_initialization as _initialization  # noqa: F401
from .framework.raw_ops import module_dir as __dir__, module_getattr as __getattr__  # noqa: F401
from .framework.raw_ops import raw_op_names as _raw_op_names

__all__ = _raw_op_names()
