"""`wengert.compat.v1`: TensorFlow 1's names (placeholders, Session, graph variables and their
initializers, the TF 1 optimizers and summaries, the functions TensorFlow 2 renamed: wengert/tf1/), with every name of wengert's top level as well,
so `import wengert.compat.v1 as tf` runs TensorFlow 1 code. The top level's names are looked up on
first use (they are the same objects); `nn` and `image` are TensorFlow 1's versions of theirs. The
functions whose TensorFlow 1 signatures differ from TensorFlow 2's take TF 1's arguments here
(`reduce_sum(x, reduction_indices=[1])`, `argmax(x, dimension=1)`, `expand_dims(x, dim=0)`,
`cond(pred, fn1, fn2)`: tf1/reductions_v1.py, tf1/arrays_v1.py, tf1/graph_functions_v1.py), as
do `math`, `linalg`, `nn` and `strings`."""
from ...util.lazy import lazy_attributes as _lazy_attributes
from ...framework.tensor_shape import (Dimension, dimension_at_index, dimension_value,
                                       disable_v2_tensorshape, enable_v2_tensorshape)
from ...framework.protos.summary import (Event, HistogramProto, LogMessage, SessionLog, Summary,
                                         SummaryMetadata)
from ...framework.protos.graph import AttrValue, NameAttrList, NodeDef
from ...framework.protos.meta_graph import MetaGraphDef, TensorInfo
from ...graph.graph_def import GraphDef
from ...graph.graph_import import import_graph_def
from ...framework.protos.session_config import (ConfigProto, GPUOptions, GraphOptions,
                                                OptimizerOptions, RunMetadata, RunOptions)
from ...framework.context import executing_eagerly
from ...graph.graph import (disable_eager_execution, disable_v2_behavior, enable_eager_execution,
                            enable_v2_behavior, get_default_graph, placeholder,
                            reset_default_graph)
from ...graph.assignments import assign, assign_add, assign_sub
from ...graph.collections import (GraphKeys, add_to_collection, add_to_collections,
                                  get_collection, get_collection_ref)
from ...graph.partitioned_variables import (fixed_size_partitioner, min_max_variable_partitioner,
                                            variable_axis_size_partitioner)
from ...graph.placeholder_with_default import placeholder_with_default
from ...graph.sparse_placeholder import sparse_placeholder
from ...graph.template import make_template
from ...graph.variable_initialization import (is_variable_initialized,
                                              report_uninitialized_variables)
from ...graph.variable_scope import (AUTO_REUSE, VariableScope, get_local_variable, get_variable,
                                     get_variable_scope, no_regularizer, variable_op_scope,
                                     variable_scope)
from ...graph.variables import (enable_resource_variables, global_variables,
                                global_variables_initializer, local_variables,
                                local_variables_initializer, model_variables,
                                moving_average_variables, resource_variables_enabled,
                                trainable_variables, variables_initializer)
from ...ops.random.v1_initializers import (constant_initializer, glorot_normal_initializer,
                                           glorot_uniform_initializer, ones_initializer,
                                           random_normal_initializer, random_uniform_initializer,
                                           truncated_normal_initializer,
                                           variance_scaling_initializer, zeros_initializer)
from ...ops.io.tf1_print import Print
from ...runtime.composite_fetches import SparseTensorValue
from ...runtime.session import InteractiveSession, Session, get_default_session
from ...util.tf_logging import get_logger
from ...version import (COMPILER_VERSION, GIT_VERSION, GRAPH_DEF_VERSION,
                        GRAPH_DEF_VERSION_MIN_CONSUMER, GRAPH_DEF_VERSION_MIN_PRODUCER, VERSION)
from . import image, logging, nn
from .renamed import RENAMED as _RENAMED
from ...tf1.accumulators import (ConditionalAccumulator, ConditionalAccumulatorBase,
                                 SparseConditionalAccumulator)
from ...tf1.arithmetic import (arg_max, arg_min, batch_gather, bincount, clip_by_average_norm,
                               confusion_matrix, div, floor_div)
from ...tf1.arrays_v1 import (batch_to_space, boolean_mask, constant, convert_to_tensor,
                              expand_dims, gather, gather_nd, matmul, ones_like, pad,
                              reverse_sequence, serialize_many_sparse, serialize_sparse, shape,
                              size, space_to_batch, squeeze, transpose, zeros_like)
from ...tf1.asserts import (assert_equal, assert_greater, assert_greater_equal, assert_integer,
                            assert_less, assert_less_equal, assert_near, assert_negative,
                            assert_non_negative, assert_non_positive, assert_none_equal,
                            assert_positive, assert_proper_iterable, assert_rank,
                            assert_rank_at_least, assert_rank_in, assert_same_float_dtype,
                            assert_scalar, assert_type)
from ...tf1.behaviour import (colocate_with, container, control_flow_v2_enabled,
                              disable_control_flow_v2, disable_resource_variables,
                              disable_tensor_equality, enable_control_flow_v2,
                              enable_tensor_equality, executing_eagerly_outside_functions,
                              initialize_all_tables, op_scope, tables_initializer)
from ...tf1.conversions import (to_complex64, to_complex128, to_double, to_float, to_int32,
                                to_int64)
from ...tf1.graph_checks import (add_check_numerics_ops, assert_variables_initialized,
                                 verify_tensor_all_finite)
from ...tf1.device_spec import DeviceSpec
from ...tf1.graph_functions_v1 import cond, device, gradients, while_loop
from ...tf1.initializers import orthogonal_initializer, uniform_unit_scaling_initializer
from ...tf1.list_difference import setdiff1d, timestamp
from ...tf1.partitioned_creation import create_partitioned_variables
from ...tf1.python_functions import py_func
from ...tf1.queues import (FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase,
                           RandomShuffleQueue)
from ...tf1.reductions_v1 import (argmax, argmin, count_nonzero, norm, reduce_all, reduce_any,
                                  reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
                                  reduce_prod, reduce_sum)
from ...tf1.readers import (FixedLengthRecordReader, IdentityReader, ReaderBase, TFRecordReader,
                            TextLineReader, WholeFileReader)
from ...tf1.reshaping import (batch_to_space_nd, depth_to_space, extract_image_patches,
                              space_to_depth)
from ...tf1.sampling import get_seed, multinomial, random_poisson, set_random_seed
from ...tf1.sparse_functions import (convert_to_tensor_or_indexed_slices,
                                     convert_to_tensor_or_sparse_tensor, sparse_matmul,
                                     sparse_merge, sparse_segment_mean, sparse_segment_sqrt_n,
                                     sparse_segment_sum, sparse_to_dense)
from ...tf1.tensor_protos import make_ndarray, make_tensor_proto
from ...tf1.text import (decode_csv, decode_raw, parse_example, parse_single_example,
                         reduce_join, string_split, string_to_hash_bucket, string_to_number,
                         substr)
from ...framework.variable_enums import AggregationMethod, VariableAggregation, VariableSynchronization
from ...tf1.variable_updates import (batch_scatter_update, count_up_to, scatter_add, scatter_div,
                                     scatter_max, scatter_min, scatter_mul, scatter_nd_add,
                                     scatter_nd_sub, scatter_nd_update, scatter_sub,
                                     scatter_update)

all_variables = global_variables  # TensorFlow 1's deprecated names
initialize_all_variables = global_variables_initializer
initialize_local_variables = local_variables_initializer
initialize_variables = variables_initializer

__getattr__, __dir__ = _lazy_attributes(globals(), {
    **{name: f"wengert:{path}" for name, path in _RENAMED.items()},
    "train": "...train",  # the TF 1 optimizers, Saver-era checkpoints
    "graph_util": ".graph_util",  # freezing, sub-graphs, import_graph_def
    "io": ".io",  # tf.io with tf_record_iterator
    "data": ".data",  # tf.data with make_one_shot_iterator and make_initializable_iterator
    "metrics": ".metrics",  # TF 1's streaming metrics over local variables
    "sparse": ".sparse",  # tf.sparse with TensorFlow 1's argument names
    "math": ".math",  # tf.math with TF 1's reductions, argmax, softmax, in_top_k
    "linalg": ".linalg",  # tf.linalg with norm's keep_dims and matmul's grad_a/grad_b
    "strings": ".strings",  # tf.strings with TF 1's split, reduce_join, to_number
    "lookup": ".lookup",  # tf.lookup whose static tables have `initializer`
    "queue": "...queue",  # TF 1's queues
    "losses": ".losses",  # TF 1's losses, gathered in the LOSSES collection
    "app": ".app",  # app.run and app.flags
    "flags": ".flags",  # command-line flags
    "feature_column": ".feature_column",  # the columns, input_layer and linear_model
    "sets": ".sets",  # tf.sets with the set_* names
    "ragged": ".ragged",  # tf.ragged with placeholder and RaggedTensorValue
    "initializers": ".initializers",  # TF 1's initializer classes and initializer ops
    "compat": ".compat",  # tf.compat's helpers, with v1 and v2
    "gfile": ".gfile",  # tf.io.gfile under TF 1's CamelCase names
    "python_io": ".python_io",  # TFRecord writing and reading
    "manip": ".manip",  # TF 1's array manipulation namespace
    "spectral": ".spectral",  # TF 1's name of tf.signal's transforms
    "dtypes": ".dtypes",  # tf.dtypes with as_string, cast, complex, saturate_cast
    "random": ".random",  # tf.random with TF 1's seeds and multinomial
    "debugging": ".debugging",  # tf.debugging with TF 1's assertions
    "saved_model": ".saved_model",  # tf.saved_model with TF 1's constant namespaces
    "test": ".test",  # TestCase, the graph gradient check, test utilities
    "resource_loader": ".resource_loader",  # paths of a program's data files
    "summary": ".summary",  # FileWriter, the TF 1 summary ops and event messages
    "NoneTensorSpec": "...tf1.type_specs:NoneTensorSpec",
    "wrap_function": "...tf1.wrap_function:wrap_function",  # TF 1 code traced once, eagerly run
    "variable_creator_scope": "...tf1.variable_creator_scope:variable_creator_scope_v1"},  # the spec of an absent value
    fallback="wengert")

