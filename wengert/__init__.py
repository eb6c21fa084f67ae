"""wengert: automatic differentiation the way TensorFlow does it, in pure Python over NumPy.

    import wengert as tf
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)   # 6.0

Every op records itself on the active tapes; `gradient()` walks the records backwards, calling each
op type's registered gradient function (see `wengert.autodiff.backprop`).
"""
from .framework import dtypes
from .framework.dtypes import (DType, as_dtype, bool, double, float16, float32, float64, half,  # noqa: A004
                               int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                               complex64, complex128)
from .framework.errors import InvalidArgumentError
from .framework import errors
from .framework.context import executing_eagerly
from .framework.registry import NotDifferentiable, RegisterGradient, no_gradient
from .framework.operation import Operation
from .framework.tensor import Tensor, constant, convert_to_tensor, is_tensor
from .framework.tensor_shape import TensorShape
from .framework.variables import Variable
from .autodiff.backprop import UnconnectedGradients
from .autodiff.tape import GradientTape
from .ops.broadcast_ops import *  # noqa: F403
from .ops.reshape_ops import *  # noqa: F403
from .ops.cast_ops import *  # noqa: F403
from .ops.math_ops import *  # noqa: F403
from .ops.unary_ops import *  # noqa: F403
from .ops.reduce_ops import *  # noqa: F403
from .ops.array_ops import *  # noqa: F403
from .ops.indexing_ops import *  # noqa: F403  gather, slices, boolean_mask, reverse
from .ops.creation_ops import *  # noqa: F403  fill, zeros, tile, pad, range, shape, ...
from .ops.matmul_ops import *  # noqa: F403
from .ops import operators as _operators  # noqa: F401  Tensor's + - * / @ [] ...
from .ops import indexed_slices_ops as _indexed_slices_ops  # noqa: F401  densifying, summing

from .ops.nn.clip import *  # noqa: F403
from .control_flow.cond import *  # noqa: F403,E402  cond, case, switch_case
from .control_flow.while_loop import while_loop  # noqa: E402
from .graph.graph import (Graph, control_dependencies, get_default_graph, name_scope,  # noqa: E402
                          reset_default_graph)
from .autodiff.gradients import gradients, hessians  # noqa: E402
from .tracing.signatures import TensorSpec
from .tracing.function import function  # noqa: E402
from .tracing.func_graph import init_scope  # noqa: E402
# -- issue 16: the tf.math and array ops TensorFlow also has at the top level --------------------
from .ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh  # noqa: E402
from .ops.complex_ops import abs, complex  # noqa: E402,A004  (|z| of complex tensors too)
from .graph.grouping import (get_current_name_scope, group, inside_function,  # noqa: E402
                             is_symbolic_tensor, no_op, tuple)  # noqa: A004
from .linalg import eig, eigvals, sqrtm as matrix_square_root  # noqa: E402
from .signal import fftnd, ifftnd, irfftnd, rfftnd  # noqa: E402
from .strings import as_string  # noqa: E402
from .ops.rounding_ops import floor, round, truncatediv, truncatemod  # noqa: E402,A004
from .ops.binary_math_ops import divide_no_nan, multiply_no_nan, squared_difference  # noqa: E402
from .ops.misc_math_ops import realdiv, scalar_mul  # noqa: E402
from .ops.histogram_ops import histogram_fixed_width, histogram_fixed_width_bins  # noqa: E402
from .ops.sort_ops import argsort, searchsorted, sort, unique, unique_with_counts  # noqa: E402
from .ops.shape_ops import (broadcast_dynamic_shape, broadcast_static_shape,  # noqa: E402
                            get_static_value, guarantee_const, identity_n, linspace, meshgrid,
                            parallel_stack, repeat, saturate_cast, sequence_mask, shape_n,
                            unravel_index)
from .ops.manip_ops import reverse_sequence, roll  # noqa: E402
from .ops.space_ops import (batch_to_space, required_space_to_batch_paddings,  # noqa: E402
                            space_to_batch, space_to_batch_nd)
from .ops.scatter_ops import *  # noqa: F401,F403,E402  tensor_scatter_nd_*
from .ops.partition_ops import dynamic_partition, dynamic_stitch  # noqa: E402
from . import bitwise, sparse  # noqa: E402  tf.bitwise, tf.sparse (segment reductions)
from .framework.sparse_tensor import SparseTensor  # noqa: E402  tf.SparseTensor (minimal)
from .control_flow.functional import foldl, foldr, map_fn, scan  # noqa: E402
from .control_flow.vectorize import vectorized_map  # noqa: E402
from . import math, nn, linalg  # noqa: E402  TensorFlow's namespaces
from .ops import image  # noqa: E402  tf.image: resize, crops, flips, colour, metrics
from . import signal  # noqa: E402  tf.signal: frame, overlap_and_add, windows, fftshift
from . import compat  # noqa: E402

from . import debugging, viz  # noqa: E402
from . import optimizers, train, datasets, keras, optimize  # noqa: E402  (scipy: lazily)
from .framework.indexed_slices import IndexedSlices  # noqa: E402
from . import random  # noqa: E402  tf.random: normal, uniform, truncated_normal, set_seed
from .autodiff.explain import explain_gradients  # noqa: E402
from . import autodiff, func, testing, test  # noqa: E402
from . import summary  # noqa: E402  tf.summary: TensorBoard event files
from . import saved_model  # noqa: E402  tf.saved_model: save / load
from .autodiff.custom import custom_gradient, grad_pass_through, recompute_grad  # noqa: E402

# -- issue 14: the runtime around the ops (tf.Module, tf.data, tf.random, tf.config, strings) ---
from .framework.dtypes import string  # noqa: E402
from .module import Module  # noqa: E402
from .ops.random.initializers import (constant_initializer, ones_initializer,  # noqa: E402
                           random_normal_initializer, random_uniform_initializer,
                           zeros_initializer)
from .keras import initializers  # noqa: E402  tf.initializers (Keras' in TensorFlow 2)
from . import data  # noqa: E402  tf.data
from .ops.io.script import numpy_function, py_function  # noqa: E402
from .ops.io.printing import print_v2 as print  # noqa: E402,A004  tf.print
from .ops.io.checks import (Assert, assert_equal, assert_greater, assert_less,  # noqa: E402
                            assert_rank, ensure_shape)
from . import nest, strings  # noqa: E402  tf.nest, tf.strings
from .ops.io.tensor_arrays import TensorArray  # noqa: E402
from .framework.device import device  # noqa: E402  tf.device
from . import config  # noqa: E402  tf.config
from .tracing.signatures import type_spec_from_value  # noqa: E402
from . import raw_ops  # noqa: E402  tf.raw_ops (issue 16)
# issue 21: tf.distribute (data-parallel training over MPI; wengert.distribute.horovod too)
from . import distribute  # noqa: E402
# -- issue 17: linear algebra -------------------------------------------------------------------
from .ops.linalg.norms import norm  # noqa: E402
from . import autograph  # noqa: E402  tf.autograph; tf.function converts control flow (issue 15)

__version__ = "0.1.0"
compat.v1._include_top_level(globals())  # tf.compat.v1 holds every name tf. holds
