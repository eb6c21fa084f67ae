"""wengert: automatic differentiation the way TensorFlow does it, in pure Python over NumPy.

    import wengert as tf
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)   # 6.0

Every op records itself on the active tapes; `gradient()` walks the records backwards, calling each
op type's registered gradient function (see `wengert.autodiff.backprop`).

This module is TensorFlow's top-level namespace: imports only. The namespaces that are heavy to
load and that a program may never use (Keras, tf.distribute over MPI, ONNX, SavedModel,
TensorBoard summaries, datasets, ...) load on first attribute access.
"""
from .util.lazy import lazy_attributes as _lazy_attributes
# tensors, variables, dtypes, errors
from . import dtypes  # tf.dtypes: the dtypes with cast, complex, saturate_cast
from .framework import errors
from .framework.dtypes import (DType, as_dtype, bool, complex64, complex128, double,  # noqa: A004
                               float16, float32, float64, half, int8, int16, int32, int64, string,
                               uint8, uint16, uint32, uint64, variant)
from .framework.errors import InvalidArgumentError
from .framework.context import executing_eagerly
from .framework.device import device
from .framework.indexed_slices import IndexedSlices
from .framework.operation import Operation
from .framework.registry import NotDifferentiable, RegisterGradient, no_gradient
from .framework.ragged_tensor import RaggedTensor
from .framework.sparse_tensor import SparseTensor, SparseTensorSpec
from .framework.tensor import Tensor, constant, convert_to_tensor, is_tensor
from .framework.tensor_shape import TensorShape
from .framework.variables import Variable
from .ops import indexed_slices_ops as _indexed_slices_ops  # densifying and summing slices
from .ops import installs as _operators  # Tensor's and Variable's + - * / @ [] ...
from .ops.io import variable_sparse_updates as _variable_sparse_updates  # v.scatter_update, ...
# differentiation
from .autodiff.backprop import UnconnectedGradients
from .autodiff.custom import custom_gradient, grad_pass_through, recompute_grad
from .autodiff.explain import explain_gradients
from .autodiff.gradients import gradients, hessians
from .autodiff.tape import GradientTape
# array ops
from .ops.array_ops import *  # noqa: F403  where, concat, stack, unstack, split, identity
from .ops.broadcast_ops import *  # noqa: F403  broadcast_to, add_n, zeros_like, ones_like
from .ops.bitcast_ops import bitcast
from .framework.tensor_conversion_registry import register_tensor_conversion_function
from .ops.cast_ops import *  # noqa: F403  cast
from .ops.creation_ops import *  # noqa: F403  fill, zeros, ones, eye, range, one_hot, tile, ...
from .ops.indexing_ops import *  # noqa: F403  gather, gather_nd, boolean_mask, reverse, ...
from .ops.manip_ops import reverse_sequence, roll
from .ops.partition_ops import dynamic_partition, dynamic_stitch
from .ops.reshape_ops import *  # noqa: F403  reshape, expand_dims, squeeze, transpose
from .ops.scatter_ops import *  # noqa: F403  tensor_scatter_nd_*
from .ops.shape_ops import (broadcast_dynamic_shape, broadcast_static_shape, get_static_value,
                            guarantee_const, identity_n, linspace, meshgrid, parallel_stack,
                            repeat, saturate_cast, sequence_mask, shape_n, unravel_index)
from .ops.volume_patch_ops import extract_volume_patches
from .ops.sparse.edit_distance import edit_distance
from .ops.random.index_shuffle import random_index_shuffle
from .ops.space_ops import (batch_to_space, required_space_to_batch_paddings, space_to_batch,
                            space_to_batch_nd)
# math
from .ops.binary_math_ops import divide_no_nan, multiply_no_nan, squared_difference
from .ops.einsum_ops import *  # noqa: F403  einsum, tensordot
from .ops.histogram_ops import histogram_fixed_width, histogram_fixed_width_bins
from .ops.linalg.eig import eig, eigvals
from .ops.linalg.matrix_functions import sqrtm as matrix_square_root
from .ops.linalg.norms import norm
from .ops.math_ops import *  # noqa: F403  + - * / **, comparisons, logic, clip_by_value
from .ops.matmul_ops import *  # noqa: F403  matmul, matvec, trace, ...
from .ops.misc_math_ops import realdiv, scalar_mul
from .ops.nn.clip import *  # noqa: F403  clip_by_norm, global_norm, clip_by_global_norm
from .ops.reduce_ops import *  # noqa: F403  reduce_*, argmax, count_nonzero, ...
from .ops.scan_ops import cumsum
from .ops.rounding_ops import floor, round, truncatediv, truncatemod  # noqa: A004
from .ops.signal.fft import fft_n as fftnd, ifft_n as ifftnd, irfft_n as irfftnd, rfft_n as rfftnd
from .ops.sort_ops import argsort, searchsorted, sort, unique, unique_with_counts
from .ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh
from .ops.unary_ops import *  # noqa: F403  sqrt, exp, log, sin, tanh, sigmoid, ...
from .ops.complex_ops import abs, complex  # noqa: A004  after unary_ops: |z| of complex z too
# strings, printing, checks, Python calls, tensor arrays
from .ops.io.checks import (Assert, assert_equal, assert_greater, assert_less, assert_rank,
                            ensure_shape)
from .ops.io.printing import print_v2 as print  # noqa: A004  tf.print
from .ops.io.script import numpy_function, py_function
from .ops.io.string_hashing import fingerprint
from .ops.io.strings import as_string
from .ops.io.tensor_arrays import TensorArray
from .ops.random.initializers import (constant_initializer, ones_initializer,
                                      random_normal_initializer, random_uniform_initializer,
                                      zeros_initializer)
# graphs, tf.function and control flow
from .control_flow.cond import *  # noqa: F403  cond, case, switch_case
from .control_flow.critical_section import CriticalSection
from .control_flow.functional import foldl, foldr, map_fn, scan
from .control_flow.vectorize import vectorized_map
from .control_flow.while_loop import while_loop
from .graph.graph import (Graph, control_dependencies, get_default_graph, name_scope,
                          reset_default_graph)
from .graph import graph_def as _graph_def, variables as _graph_variables  # noqa: F401  the graph
# layer's installs on Graph (as_graph_def's writer, tf.Variable in a graph), which tf.compat.v1,
# loaded on first use, used to bring
from .graph.grouping import (get_current_name_scope, group, inside_function, is_symbolic_tensor,
                             no_op, tuple)  # noqa: A004
from .module import Module
from .tracing.func_graph import init_scope
from .tracing.function import function
from .tracing.ragged_spec import RaggedTensorSpec
from .tracing.signatures import TensorSpec, type_spec_from_value
# TensorFlow's namespaces (tf.function converts control flow with autograph, loaded here)
from . import (autodiff, autograph, bitwise, compat, config, func, linalg, math, nest, nn, random,
               ragged, signal, sparse, strings, testing)

__version__ = "0.1.0"

__getattr__, __dir__ = _lazy_attributes(globals(), {
    "keras": ".keras",
    "initializers": ".keras.initializers",  # tf.initializers: Keras's in TensorFlow 2
    "optimizers": ".optimizers",
    "train": ".train",
    "optimize": ".optimize",
    "data": ".data",
    "experimental": ".experimental",
    "io": ".io",
    "graph_util": ".graph_util",
    "import_graph_def": ".graph.graph_import:import_graph_def",
    "lookup": ".lookup",
    "feature_column": ".feature_column",
    "queue": ".queue",  # TF 1's queues (FIFOQueue, RandomShuffleQueue, ...)
    "sets": ".sets",
    "test": ".test",  # TestCase and the test helpers (loads unittest and the summary writer)
    "datasets": ".datasets",
    "distribute": ".distribute",
    "summary": ".summary",
    "profiler": ".profiler",
    "types": ".types",
    "saved_model": ".saved_model",
    "onnx": ".onnx",
    "image": ".image",
    "raw_ops": ".raw_ops",
    "debugging": ".debugging",
    "viz": ".viz",
    "version": ".version",
    "get_logger": ".util.tf_logging:get_logger",
    "VariableAggregation": ".framework.variable_enums:VariableAggregation",
    "VariableSynchronization": ".framework.variable_enums:VariableSynchronization",
    "AggregationMethod": ".framework.variable_enums:AggregationMethod",
    "TypeSpec": ".tf1.type_specs:TypeSpec",
    "TensorArraySpec": ".tf1.type_specs:TensorArraySpec",
    "IndexedSlicesSpec": ".tf1.type_specs:IndexedSlicesSpec",
    "OptionalSpec": ".tf1.type_specs:OptionalSpec",
    "variable_creator_scope": ".tf1.variable_creator_scope:variable_creator_scope",
    "audio": ".audio"})
