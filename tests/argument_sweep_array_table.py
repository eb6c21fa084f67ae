"""The argument sweep's table for tf.* (top level) and tf.math: each function's base call (the
argument text after the function name, over the inputs of argument_sweep.INPUTS) and the values
of its optional parameters where VALUE_BY_NAME's choice for the parameter name does not fit;
`Skip(reason)` for a function or parameter the sweep does not call.

VALUE_BY_NAME holds one non-default value per common parameter name, SKIP_BY_NAME the names the
sweep never sets, each with the reason.
"""
from argument_sweep import Args, ChannelsFirst, Skip

VALUE_BY_NAME = {
    "axis": ["1", "-2"], "keepdims": "True", "exclusive": "True", "reverse": "True",
    "output_type": "tf.int32", "out_type": ["tf.int64", "tf.int32"],
    "out_idx": "tf.int64",
    "index_type": "tf.int64", "transpose_a": "True", "transpose_b": "True",
    "adjoint_a": "True", "adjoint_b": "True", "adjoint": "True", "conjugate": "True",
    "direction": ["'DESCENDING'", "'ASCENDING'"], "stable": "True", "side": "'right'", "sorted": "False",
    "a_is_sparse": "True", "b_is_sparse": "True", "validate_args": "True",
    "full_matrices": "True", "lower": "False", "periodic": "False", "pad_end": "True",
    "epsilon": "0.5", "alpha": "0.3", "approximate": "True", "antialias": "True",
    "keep_dims": "True", "binary_output": "True", "minlength": "5", "maxlength": "3",
    "separator": "'+'", "unit": ["'UTF8_CHAR'", "'BYTE'"],
}

RANDOM = Skip("random: the value depends on TensorFlow's generator")
SKIP_BY_NAME = {
    "seed": RANDOM,
    "layout": Skip("a DTensor layout: wengert has no DTensor"),
    "grad_a": Skip("a gradient-only hint (matmul's grad_a/grad_b): the value is the same"),
    "grad_b": Skip("a gradient-only hint (matmul's grad_a/grad_b): the value is the same"),
    "parallel_iterations": Skip("a scheduling hint: the value is the same whatever it is"),
    "swap_memory": Skip("a GPU memory hint: the value is the same whatever it is"),
    "back_prop": Skip("deprecated gradient switch: the value is the same whatever it is"),
    "use_cudnn_on_gpu": Skip("a GPU kernel choice: the value is the same on CPU"),
    "message": Skip("an assertion's message: only the error text changes"),
    "summarize": Skip("how many entries an error message prints: only the error text changes"),
}

NO_CPU_KERNEL = Skip("TensorFlow 2.21's CPU has no kernel for it (NotFoundError)")
CALLABLE = Skip("takes Python callables: covered by the control-flow and function tests")
NOT_AN_OP = Skip("not a computation on tensors (configuration, introspection, registration)")

ELEMENTWISE = {name: ("X", {}) for name in (
    "abs", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1", "floor", "lgamma",
    "log_sigmoid", "negative", "reciprocal", "reciprocal_no_nan", "rint", "round", "sigmoid",
    "sign", "sin", "sinh", "softplus", "softsign", "square", "tan", "tanh", "is_finite",
    "is_inf", "is_nan", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "asinh",
    "digamma", "zero_fraction")}
ELEMENTWISE.update({name: ("POS", {}) for name in (
    "log", "log1p", "sqrt", "rsqrt", "acosh", "lbeta")})
ELEMENTWISE.update({name: ("UNIT", {}) for name in (
    "acos", "asin", "atanh", "erfinv", "erfcinv", "ndtri")})
ELEMENTWISE.update({name: ("X, Y", {}) for name in (
    "add", "subtract", "multiply", "divide", "truediv", "realdiv", "maximum", "minimum",
    "squared_difference", "atan2", "floordiv", "floormod", "mod", "divide_no_nan",
    "multiply_no_nan", "xdivy", "equal", "not_equal", "greater", "greater_equal", "less",
    "less_equal", "nextafter")})
ELEMENTWISE.update({
    "pow": ("POS, Y", {}), "xlogy": ("X, POS", {}), "xlog1py": ("X, POS", {}),
    "truncatediv": ("I, IP", {}), "truncatemod": ("I, IP", {}),
    "igamma": ("POS, UNIT", {}), "igammac": ("POS, UNIT", {}), "zeta": ("POS + 1, POS", {}),
    "polygamma": ("np.float32(1), POS", {}), "betainc": ("POS, POS + 1, UNIT", {}),
    "logical_and": ("B, ~B", {}), "logical_or": ("B, ~B", {}), "logical_xor": ("B, ~B", {}),
    "logical_not": ("B", {}), "conj": ("C", {}), "real": ("C", {}), "imag": ("C", {}),
    "angle": ("C", {}), "invert_permutation": ("[2, 0, 1]", {}),
    "is_non_decreasing": ("[1, 2, 2]", {}), "is_strictly_increasing": ("[1, 2, 2]", {}),
    "scalar_mul": ("2.5, X", {}), "add_n": ("[X, Y, X]", {}), "accumulate_n": ("[X, Y]", {
        "shape": "[2, 3]", "tensor_dtype": "tf.float32"}),
    "polyval": ("[X, Y, POS], UNIT", {}), "sigmoid_cross_entropy_with_logits": (
        "labels=UNIT, logits=X", {"labels": Skip("given in the base call"),
                                  "logits": Skip("given in the base call")}),
})

REDUCE = {name: ("X", {}) for name in (
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_logsumexp",
    "reduce_std", "reduce_variance", "reduce_euclidean_norm")}
REDUCE.update({"reduce_all": ("B", {}), "reduce_any": ("B", {}),
               "count_nonzero": ("I", {"dtype": "tf.int32"})})

SCANS = {
    "cumsum": ("X", {}), "cumprod": ("X", {}), "cumulative_logsumexp": ("X", {}),
    "argmax": ("X", {}), "argmin": ("X", {}),
    "argsort": ("[[3., 1., 2.], [1., 1., 0.]]", {"axis": "0"}),
    "sort": ("X", {"axis": "0"}),
    "top_k": ("X", {"k": "2"}), "in_top_k": ("[2, 0], X, 1", {}),
    "softmax": ("X", {"axis": "0"}), "log_softmax": ("X", {"axis": "0"}),
    "l2_normalize": ("X", {"axis": "0", "dim": "0"}),
    "bincount": ("[[1, 2, 2], [0, 4, 1]]", {"weights": "[[0.5, 1., 2.], [1., 1., 3.]]",
                                            "dtype": "tf.float64", "axis": "-1"}),
    "confusion_matrix": ("[0, 2, 1, 1], [0, 1, 1, 2]", {
        "num_classes": "4", "weights": "[1., 2., 3., 4.]", "dtype": "tf.float32"}),
    "segment_sum": ("X3, [0, 0]", {}), "segment_mean": ("X3, [0, 1]", {}),
    "segment_max": ("X3, [0, 0]", {}), "segment_min": ("X3, [0, 0]", {}),
    "segment_prod": ("X3, [0, 1]", {}),
    "sobol_sample": ("2, 3", {"skip": "2", "dtype": "tf.float64"}),
    "approx_max_k": ("X, 2", {"reduction_dimension": NO_CPU_KERNEL, "recall_target": "0.5",
                              "reduction_input_size_override": "3",
                              "aggregate_to_topk": "False"}),
    "approx_min_k": NO_CPU_KERNEL,
    "approx_top_k": ("X, 2", {"reduction_dimension": NO_CPU_KERNEL, "recall_target": "0.5",
                              "is_max_k": NO_CPU_KERNEL, "reduction_input_size_override": "3",
                              "aggregate_to_topk": "False"}),
}
for _op in ("max", "min", "mean", "prod", "sqrt_n", "sum"):
    SCANS[f"unsorted_segment_{_op}"] = ("X3, [0, 2], 3", {})

ARRAY = {
    "batch_to_space": ("np.arange(8.).reshape(4, 1, 1, 2), [2, 2], [[0, 0], [0, 0]]", {}),
    "bitcast": ("X, tf.int32", {}),
    "boolean_mask": ("X3, [[True, False, True], [False, True, True]]", {"axis": "0"}),
    "broadcast_to": ("[1., 2., 3.], [2, 3]", {}),
    "cast": ("X, tf.int32", {}), "saturate_cast": ("X * 100, tf.int8", {}),
    "clip_by_global_norm": ("[X, Y], 2.0", {"use_norm": "tf.constant(3.0)"}),
    "clip_by_norm": ("X, 2.0", {"axes": "[1]"}),
    "clip_by_value": ("X, -1.0, 1.0", {}), "complex": ("X, Y", {}),
    "concat": ("[X, Y], 1", {}),
    "constant": ("[[1, 2], [3, 4]]", {"dtype": "tf.float32", "shape": "[4]"}),
    "convert_to_tensor": ("[1, 2]", {"dtype": "tf.int64", "dtype_hint": "tf.float32"}),
    "dynamic_partition": ("X3, [0, 1], 2", {}),
    "dynamic_stitch": ("[[0, 2], [1]], [[1., 2.], [3.]]", {}),
    "edit_distance": ("tf.sparse.from_dense(np.array([[b'a', b'b'], [b'c', b'']])), "
                      "tf.sparse.from_dense(np.array([[b'a', b''], [b'c', b'd']]))",
                      {"normalize": "False"}),
    "ensure_shape": ("X, [2, None]", {}),
    "expand_dims": ("X, 1", {}),
    "extract_volume_patches": ("VOL, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], 'VALID'", {}),
    "eye": ("2", {"num_columns": "3", "batch_shape": "[2]", "dtype": "tf.int32"}),
    "fill": ("[2, 3], 7", {}),
    "fingerprint": ("S", {"method": Skip("'farmhash64' is the only method TensorFlow has")}),
    "gather": ("X3, [[1, 0]]", {"validate_indices": "True", "axis": "1",
                                "batch_dims": Args("X3, [[1, 0], [2, 2]], axis=1, batch_dims=1")}),
    "gather_nd": ("X3, [[1, 2], [0, 1]]", {"batch_dims": Args("X3, [[1], [2]], batch_dims=1"),
                                           "bad_indices_policy": "'IGNORE'"}),
    "histogram_fixed_width": ("X, [-2., 4.]", {"nbins": "4", "dtype": "tf.int64"}),
    "histogram_fixed_width_bins": ("X, [-2., 4.]", {"nbins": "4", "dtype": "tf.int64"}),
    "identity": ("X", {}), "identity_n": ("[X, I]", {}),
    "linspace": ("[0., 1.], [2., 5.], 4", {"axis": "1"}),
    "meshgrid": Skip("takes its inputs as *args: covered by tests/test_array_ops.py"),
    "norm": ("X", {"ord": "1", "axis": "1"}),
    "one_hot": ("[0, 2, -1], 3", {"on_value": "5.", "off_value": "-1.",
                               "axis": "0", "dtype": "tf.int32"}),
    "ones": ("[2, 3]", {"dtype": "tf.int32"}), "zeros": ("[2, 3]", {"dtype": "tf.int32"}),
    "ones_like": ("X", {"dtype": "tf.int32"}), "zeros_like": ("X", {"dtype": "tf.int32"}),
    "pad": ("X, [[1, 1], [2, 2]]", {"mode": ["'REFLECT'", "'SYMMETRIC'"],
                                    "constant_values": "7."}),
    "parallel_stack": ("[X, Y]", {}),
    "range": ("2", {"limit": "11", "delta": "3", "dtype": "tf.float64"}),
    "rank": ("X3", {}),
    "repeat": ("X, 2", {"axis": Args("X, [1, 2, 0], axis=1")}),
    "required_space_to_batch_paddings": ("[5, 7], [2, 3]", {"base_paddings": "[[1, 0], [0, 1]]"}),
    "reshape": ("X3, [4, -1]", {}),
    "reverse": ("X3, [0, 2]", {}),
    "reverse_sequence": ("X3, [2, 3], 1", {
        "seq_axis": Args("X3, [3, 1], seq_axis=2"),
        "batch_axis": Args("X3, [1, 3, 2], seq_axis=2, batch_axis=1")}),
    "roll": ("X3, [1, -1], [1, 2]", {}),
    "scatter_nd": ("[[1], [3]], [[1., 2.], [3., 4.]], [5, 2]",
                   {"bad_indices_policy": "'IGNORE'"}),
    "searchsorted": ("[[1., 2., 2., 4.]], [[2., 3.]]", {}),
    "sequence_mask": ("[1, 3]", {"maxlen": "4", "dtype": "tf.float32"}),
    "shape": ("X3", {}), "shape_n": ("[X, X3]", {}), "size": ("X3", {}),
    "slice": ("X3, [0, 1, 1], [2, -1, 2]", {}),
    "space_to_batch": ("np.arange(16.).reshape(1, 4, 4, 1), [2, 2], [[0, 0], [0, 0]]", {}),
    "space_to_batch_nd": ("np.arange(16.).reshape(1, 4, 4, 1), [2, 2], [[0, 0], [0, 0]]", {}),
    "split": ("X3, 2", {"axis": "2", "num": Skip("only for an unknown size split")}),
    "squeeze": ("np.ones((2, 1, 3, 1), np.float32)", {"axis": "[1]"}),
    "stack": ("[X, Y]", {}),
    "stop_gradient": ("X", {}),
    "strided_slice": ("X3, [0, 1, 0], [2, 3, 3]", {
        "strides": "[1, 1, 2]", "begin_mask": "1", "end_mask": "4", "ellipsis_mask": "2",
        "new_axis_mask": "2", "shrink_axis_mask": "1",
        "var": Skip("the variable a sliced assignment writes to")}),
    "tensor_scatter_nd_add": ("X, [[0, 1], [1, 2]], [10., 20.]",
                              {"bad_indices_policy": "'IGNORE'"}),
    "tensor_scatter_nd_max": ("X, [[0, 1], [1, 2]], [10., 20.]",
                              {"bad_indices_policy": "'IGNORE'"}),
    "tensor_scatter_nd_min": ("X, [[0, 1], [1, 2]], [10., -20.]",
                              {"bad_indices_policy": "'IGNORE'"}),
    "tensor_scatter_nd_sub": ("X, [[0, 1], [1, 2]], [10., 20.]",
                              {"bad_indices_policy": "'IGNORE'"}),
    "tensor_scatter_nd_update": ("X, [[0, 1], [1, 2]], [10., 20.]", {}),
    "tensordot": ("X, X3, [[0], [0]]", {}),
    "tile": ("X, [2, 1]", {}),
    "transpose": ("C", {"perm": "[1, 0]"}),
    "unique": ("[3, 1, 3, 2]", {}), "unique_with_counts": ("[3, 1, 3, 2]", {}),
    "unravel_index": ("[5, 7], [3, 4]", {}),
    "unstack": ("X3", {"num": "2"}),
    "where": ("B", {"x": Args("B, X, Y"), "y": Args("B, x=X, y=Y")}),
    "matmul": ("M, N", {"output_type": Args("np.full((2, 2), 100, np.int8), "
                                            "np.full((2, 2), 100, np.int8), output_type=tf.int32")}),
    "matrix_square_root": ("M", {}),
    "eig": ("M", {}), "eigvals": ("M", {}),
    "einsum": Skip("takes its inputs as *args: covered by tests/test_einsum*.py"),
    "as_string": ("X", {"precision": "2", "scientific": "True", "shortest": "True",
                        "width": "8", "fill": "'0'"}),
    # odd rounds or under 4: TensorFlow's answer changes from one call to the next (its cipher
    # reads round keys it never set); wengert refuses them
    "random_index_shuffle": ("[1, 2], [1, 2, 3], 9", {"rounds": "6"}),
    "ragged_fill_empty_rows": ("[0, 0, 2], [1., 2., 3.], 4, 9.", {}),
    "ragged_fill_empty_rows_grad": ("[0, 1, 1, 2], [1., 2., 3., 4.]", {}),
    "get_static_value": ("tf.constant(X)", {"partial": "True"}),
    "make_ndarray": Skip("takes a TensorProto: covered by tests/test_tensor_util*.py"),
    "make_tensor_proto": Skip("returns a TensorProto: covered by tests/test_tensor_util*.py"),
    "fftnd": NO_CPU_KERNEL, "ifftnd": NO_CPU_KERNEL, "rfftnd": NO_CPU_KERNEL,
    "irfftnd": NO_CPU_KERNEL,
    "conv": ("IMG6, K2, [1, 1, 1, 1], 'VALID'", {
        "explicit_paddings": Args("IMG6, K2, [1, 1, 1, 1], 'EXPLICIT', "
                                  "explicit_paddings=[0, 0, 1, 0, 0, 2, 0, 0]"),
        "data_format": ChannelsFirst("IMG6.transpose(0, 3, 1, 2), K2, [1, 1, 1, 1], 'VALID', "
                                     "data_format='NCHW'", [0, 2, 3, 1]),
        "dilations": "[1, 2, 2, 1]", "batch_dims": "1",
        "groups": Skip("TensorFlow 2.21's CPU has no grouped convolution (UnimplementedError)")}),
    "conv2d_backprop_filter_v2": NO_CPU_KERNEL, "conv2d_backprop_input_v2": NO_CPU_KERNEL,
    "map_fn": ("lambda t: t * 2., X", {"dtype": "tf.float32", "infer_shape": "False",
                                       "fn_output_signature": "tf.float32"}),
    "scan": ("lambda a, t: a + t, X", {"initializer": "np.zeros(3, np.float32)",
                                       "infer_shape": "False"}),
    "foldl": ("lambda a, t: a + t, X", {"initializer": "np.ones(3, np.float32)"}),
    "foldr": ("lambda a, t: a * 2. + t, X", {"initializer": "np.ones(3, np.float32)"}),
    "vectorized_map": ("lambda t: t * 2., X", {"fallback_to_while_loop": "False",
                                               "warn": "False"}),
    "while_loop": ("lambda i: i < 10, lambda i: (i * 3,), (tf.constant(1),)", {
        "shape_invariants": "(tf.TensorShape([]),)", "maximum_iterations": "2"}),
    "case": ("[(tf.constant(False), lambda: 1), (tf.constant(True), lambda: 2)]", {
        "default": "lambda: 3", "exclusive": "True", "strict": "True"}),
    "switch_case": ("tf.constant(5), [lambda: 1, lambda: 2]", {"default": "lambda: 7"}),
    "cond": ("tf.constant(True), lambda: 1, lambda: 2", {
        "true_fn": Skip("given in the base call"), "false_fn": Skip("given in the base call")}),
    "tuple": ("[X, Y]", {"control_inputs": "[tf.constant(1)]"}),
    "assert_equal": ("X, X", {}), "assert_greater": ("POS, -POS", {}),
    "assert_less": ("-POS, POS", {}), "assert_rank": ("X, 2", {}),
    "guarantee_const": ("X", {}),
    "check_pinned": Skip("checks where a tensor's memory is pinned: wengert has one device"),
}

for _name in ("Assert", "as_dtype", "control_dependencies", "custom_gradient", "device",
              "executing_eagerly", "function", "get_current_name_scope", "get_logger",
              "grad_pass_through", "gradients", "hessians", "group", "import_graph_def",
              "init_scope", "inside_function", "is_symbolic_tensor", "is_tensor",
              "load_library", "load_op_library", "no_gradient", "no_op",
              "nondifferentiable_batch_function", "numpy_function", "print", "py_function",
              "recompute_grad", "register_tensor_conversion_function", "timestamp",
              "type_spec_from_value", "variable_creator_scope", "broadcast_dynamic_shape",
              "broadcast_static_shape"):
    ARRAY[_name] = NOT_AN_OP if _name not in ("numpy_function", "py_function") else CALLABLE
ARRAY["broadcast_dynamic_shape"] = ("[2, 1], [1, 3]", {})
ARRAY["broadcast_static_shape"] = ("tf.TensorShape([2, 1]), tf.TensorShape([1, 3])", {})

TABLE = {**ELEMENTWISE, **REDUCE, **SCANS, **ARRAY}
