"""The argument sweep's table for tf.nn, tf.linalg, tf.signal, tf.image and tf.strings: each
function's base call (the argument text after the function name, over argument_sweep.INPUTS)
and the values of its optional parameters where argument_sweep_array_table.VALUE_BY_NAME's
choice does not fit; `Skip(reason)` for what the sweep does not call, `Args(text)` for a
parameter whose value needs other inputs than the base call's.
"""
from argument_sweep import Args, ChannelsFirst, Skip

RANDOM = Skip("random: the value depends on TensorFlow's generator")
NO_CPU_KERNEL = Skip("TensorFlow 2.21's CPU has no kernel for it (NotFoundError)")
FILE_FORMAT = Skip("encodes or decodes an image file: covered by tests/test_image_codecs.py")

NN = {
    "relu": ("X", {}), "relu6": ("X * 4", {}), "elu": ("X", {}), "selu": ("X", {}),
    "gelu": ("X", {}), "leaky_relu": ("X", {}), "silu": ("X", {"beta": "2.0"}),
    "swish": ("X", {"beta": "2.0"}), "crelu": ("X", {"axis": "0"}), "l2_loss": ("X", {}),
    "bias_add": ("X3, [1., 2., 3., 4.]", {"data_format": Args(
        "X3, [1., 2., 3.], data_format='NCHW'")}),
    "batch_normalization": ("X, [0.5, 0., 1.], POS, [0., 1., 0.], [2., 1., 1.], 0.01", {}),
    "batch_norm_with_global_normalization": (
        "IMG, tf.constant([0.5, 0.2, 0.1]), tf.constant([1., 2., 0.5]), tf.constant([0., 1., 0.]), "
        "tf.constant([2., 1., 1.]), 0.01, False", {}),
    "moments": ("X3, [0, 1]", {"shift": "1.0", "keepdims": "True"}),
    "sufficient_statistics": ("X3, [0, 1]", {"shift": "1.0", "keepdims": "True"}),
    "weighted_moments": ("X3, [0, 1], [[[1.], [2.], [0.5]], [[1.], [1.], [3.]]]",
                         {"keepdims": "True"}),
    "normalize_moments": ("4., [2., 4.], [6., 9.], None", {}),
    "softmax_cross_entropy_with_logits": ("UNIT, X", {"axis": "0"}),
    "sparse_softmax_cross_entropy_with_logits": ("[2, 0], X", {}),
    "weighted_cross_entropy_with_logits": ("UNIT, X, 2.0", {}),
    "log_poisson_loss": ("UNIT * 3, X", {"compute_full_loss": "True"}),
    "compute_average_loss": ("[1., 2., 3., 4.]", {"sample_weight": "[1., 0., 2., 1.]",
                                                  "global_batch_size": "8"}),
    "scale_regularization_loss": ("3.0", {}),
    "local_response_normalization": ("IMG6", {"depth_radius": "1", "bias": "2.",
                                              "alpha": "0.5", "beta": "0.25"}),
    "lrn": ("IMG6", {"depth_radius": "1", "bias": "2.", "alpha": "0.5", "beta": "0.25"}),
    "isotonic_regression": ("X", {"decreasing": "False", "axis": "0"}),
    "depth_to_space": ("np.arange(16.).reshape(1, 2, 2, 4), 2", {"data_format": ChannelsFirst(
        "np.arange(16.).reshape(1, 2, 2, 4).transpose(0, 3, 1, 2), 2, data_format='NCHW'",
        [0, 2, 3, 1])}),
    "space_to_depth": ("np.arange(16.).reshape(1, 4, 4, 1), 2", {"data_format": ChannelsFirst(
        "np.arange(16.).reshape(1, 4, 4, 1).transpose(0, 3, 1, 2), 2, data_format='NCHW'",
        [0, 2, 3, 1])}),
    "embedding_lookup": ("X3, [1, 0, 1]", {"max_norm": "1.0"}),
    "collapse_repeated": ("[[1, 1, 2, 2, 3], [4, 4, 4, 5, 0]], [5, 4]", {}),
    "ctc_unique_labels": ("[[1, 1, 2, 3], [4, 2, 4, 0]]", {}),
    "ctc_greedy_decoder": ("SEQ.transpose(1, 0, 2), [6, 4]", {
        "merge_repeated": "False", "blank_index": "0"}),
    "ctc_beam_search_decoder": ("SEQ.transpose(1, 0, 2), [6, 4]", {
        "beam_width": "3", "top_paths": "2"}),
    "ctc_loss": ("[[1, 2], [1, 1]], SEQ.transpose(1, 0, 2), [2, 1], [6, 5]", {
        "logits_time_major": Args("[[1, 2], [1, 1]], SEQ, [2, 1], [6, 5], "
                                  "logits_time_major=False"), "unique": Args(
            "[[1, 2], [1, 1]], SEQ.transpose(1, 0, 2), [2, 1], [6, 5], blank_index=0, "
            "unique=tf.nn.ctc_unique_labels(tf.constant([[1, 2], [1, 1]]))"),
        "blank_index": Args("[[2, 1], [1, 1]], SEQ.transpose(1, 0, 2), [2, 1], [6, 5], "
                            "blank_index=0")}),
    "dropout": RANDOM, "all_candidate_sampler": RANDOM, "compute_accidental_hits": RANDOM,
    "fixed_unigram_candidate_sampler": RANDOM, "learned_unigram_candidate_sampler": RANDOM,
    "nce_loss": RANDOM, "sampled_softmax_loss": RANDOM, "fractional_avg_pool": RANDOM,
    "fractional_max_pool": RANDOM,
    "embedding_lookup_sparse": Skip("sparse ids: covered by tests/test_embedding_sparse.py"),
    "safe_embedding_lookup_sparse": Skip(
        "sparse ids: covered by tests/test_embedding_sparse.py"),
    "with_space_to_batch": Skip("takes a Python callable op: covered by tests/test_conv_ops.py"),
    "conv1d": ("SEQ, K1, 1, 'VALID'", {"data_format": ChannelsFirst(
        "SEQ.transpose(0, 2, 1), K1, 1, 'VALID', data_format='NCW'", [0, 2, 1]), "dilations": "2"}),
    "conv2d": ("IMG6, K2, 1, 'VALID'", {"data_format": ChannelsFirst(
        "IMG6.transpose(0, 3, 1, 2), K2, 1, 'VALID', data_format='NCHW'", [0, 2, 3, 1]), "dilations": "2"}),
    "conv3d": ("VOL, K3, [1, 1, 1, 1, 1], 'VALID'", {"data_format": ChannelsFirst(
        "VOL.transpose(0, 4, 1, 2, 3), K3, [1, 1, 1, 1, 1], 'VALID', data_format='NCDHW'",
        [0, 2, 3, 4, 1]), "dilations": Skip("TensorFlow's CPU Conv3D has no dilations")}),
    "convolution": ("IMG6, K2", {"strides": "2", "padding": "'SAME'",
                                 "data_format": ChannelsFirst("IMG6.transpose(0, 3, 1, 2), K2, data_format='NCHW'",
                                     [0, 2, 3, 1]), "dilations": "2"}),
    "depthwise_conv2d": ("IMG6, DW, [1, 1, 1, 1], 'VALID'", {
        "data_format": ChannelsFirst("IMG6.transpose(0, 3, 1, 2), DW, [1, 1, 1, 1], 'VALID', "
                                     "data_format='NCHW'", [0, 2, 3, 1]), "dilations": "[2, 2]"}),
    "separable_conv2d": ("IMG6, DW, np.ones((1, 1, 6, 2), np.float32), [1, 1, 1, 1], 'VALID'", {
        "data_format": ChannelsFirst("IMG6.transpose(0, 3, 1, 2), DW, np.ones((1, 1, 6, 2), "
                                     "np.float32), [1, 1, 1, 1], 'VALID', data_format='NCHW'",
                                     [0, 2, 3, 1]), "dilations": "[2, 2]"}),
    "atrous_conv2d": ("IMG6, K2, 2, 'SAME'", {}),
    "conv1d_transpose": ("SEQ[..., :2], K1, [2, 12, 3], 2", {
        "padding": "'VALID'", "data_format": ChannelsFirst(
            "SEQ[..., :2].transpose(0, 2, 1), K1, [2, 3, 12], 2, data_format='NCW'",
            [0, 2, 1]), "dilations": Skip("TF's CPU needs 1")}),
    "conv2d_transpose": ("IMG[..., :2], K2, [1, 8, 8, 3], 2", {
        "padding": "'VALID'", "data_format": ChannelsFirst(
            "IMG[..., :2].transpose(0, 3, 1, 2), K2, [1, 3, 8, 8], 2, data_format='NCHW'",
            [0, 2, 3, 1]), "dilations": Skip("TF's CPU needs 1")}),
    "conv3d_transpose": ("VOL, K3, [2, 8, 8, 8, 2], 2", {
        "padding": "'VALID'", "data_format": ChannelsFirst(
            "VOL.transpose(0, 4, 1, 2, 3), K3, [2, 2, 8, 8, 8], 2, data_format='NCDHW'",
            [0, 2, 3, 4, 1]), "dilations": Skip("TF's CPU needs 1")}),
    "conv_transpose": ("IMG[..., :2], K2, [1, 8, 8, 3], 2", {
        "padding": "'VALID'", "data_format": ChannelsFirst(
            "IMG[..., :2].transpose(0, 3, 1, 2), K2, [1, 3, 8, 8], 2, data_format='NCHW'",
            [0, 2, 3, 1]), "dilations": Skip("TF's CPU needs 1")}),
    "atrous_conv2d_transpose": ("IMG[..., :2], K2, [1, 4, 4, 3], 2, 'SAME'", {}),
    "depthwise_conv2d_backprop_filter": ("IMG6, [2, 2, 3, 2], np.ones((1, 5, 5, 6), "
                                         "np.float32), [1, 1, 1, 1], 'VALID'", {
                                             "data_format": ChannelsFirst(
                                                 "IMG6.transpose(0, 3, 1, 2), [2, 2, 3, 2], "
                                                 "np.ones((1, 6, 5, 5), np.float32), "
                                                 "[1, 1, 1, 1], 'VALID', data_format='NCHW'",
                                                 [0, 1, 2, 3]),
                                             "dilations": Skip(
                                                 "changes the output_backprop's shape")}),
    "depthwise_conv2d_backprop_input": ("[1, 6, 6, 3], DW, np.ones((1, 5, 5, 6), np.float32), "
                                        "[1, 1, 1, 1], 'VALID'", {
                                            "data_format": ChannelsFirst(
                                                "[1, 3, 6, 6], DW, np.ones((1, 6, 5, 5), "
                                                "np.float32), [1, 1, 1, 1], 'VALID', "
                                                "data_format='NCHW'", [0, 2, 3, 1]),
                                            "dilations": Skip(
                                                "changes the output_backprop's shape")}),
    "dilation2d": ("IMG6, np.zeros((2, 2, 3), np.float32) + IMG6[0, :2, :2, :], "
                   "[1, 1, 1, 1], 'VALID', 'NHWC', [1, 1, 1, 1]", {}),
    "erosion2d": ("IMG6, np.zeros((2, 2, 3), np.float32) + IMG6[0, :2, :2, :], "
                  "[1, 1, 1, 1], 'VALID', 'NHWC', [1, 1, 1, 1]", {}),
    "avg_pool": ("IMG6, 2, 2, 'VALID'", {"data_format": ChannelsFirst(
        "IMG6.transpose(0, 3, 1, 2), 2, 2, 'VALID', data_format='NCHW'", [0, 2, 3, 1])}),
    "avg_pool1d": ("SEQ, 2, 2, 'VALID'", {"data_format": ChannelsFirst(
        "SEQ.transpose(0, 2, 1), 2, 2, 'VALID', data_format='NCW'", [0, 2, 1])}),
    "avg_pool2d": ("IMG6, 2, 2, 'VALID'", {"data_format": ChannelsFirst(
        "IMG6.transpose(0, 3, 1, 2), 2, 2, 'VALID', data_format='NCHW'", [0, 2, 3, 1])}),
    "avg_pool3d": ("VOL, 2, 2, 'VALID'", {"data_format": ChannelsFirst(
        "VOL.transpose(0, 4, 1, 2, 3), 2, 2, 'VALID', data_format='NCDHW'", [0, 2, 3, 4, 1])}),
    "max_pool": ("IMG6, 2, 2, 'VALID'", {"data_format": ChannelsFirst(
        "IMG6.transpose(0, 3, 1, 2), 2, 2, 'VALID', data_format='NCHW'", [0, 2, 3, 1])}),
    "max_pool1d": ("SEQ, 2, 2, 'VALID'", {"data_format": ChannelsFirst(
        "SEQ.transpose(0, 2, 1), 2, 2, 'VALID', data_format='NCW'", [0, 2, 1])}),
    "max_pool2d": ("IMG6, 2, 2, 'VALID'", {"data_format": ChannelsFirst(
        "IMG6.transpose(0, 3, 1, 2), 2, 2, 'VALID', data_format='NCHW'", [0, 2, 3, 1])}),
    "max_pool3d": ("VOL, 2, 2, 'VALID'", {"data_format": ChannelsFirst(
        "VOL.transpose(0, 4, 1, 2, 3), 2, 2, 'VALID', data_format='NCDHW'", [0, 2, 3, 4, 1])}),
    "max_pool_with_argmax": ("IMG6, 2, 2, 'VALID'", {
        "data_format": "'NCHW'", "output_dtype": "tf.int32",
        "include_batch_in_index": "True"}),
    "pool": ("IMG6, [2, 2], 'MAX'", {"strides": "[2, 2]", "padding": "'SAME'",
                                     "data_format": ChannelsFirst(
                                         "IMG6.transpose(0, 3, 1, 2), [2, 2], 'MAX', "
                                         "data_format='NCHW'", [0, 2, 3, 1]),
                                     "dilations": "[2, 2]"}),
}

LINALG = {
    "adjoint": ("CM", {}), "band_part": ("N, 1, 0", {}), "cholesky": ("M", {}),
    "cholesky_solve": ("np.linalg.cholesky(M), N", {}), "cross": ("N, M", {}),
    "det": ("N", {}), "logdet": ("M", {}), "slogdet": ("N", {}), "expm": ("N * 0.3", {}),
    "logm": ("CM", {}), "sqrtm": ("M", {}), "inv": ("N", {}), "eigh": ("M", {}),
    "eigvalsh": ("M", {}), "trace": ("N", {}), "tensor_diag": ("V3", {}),
    "tensor_diag_part": ("N", {}), "global_norm": ("[X, N]", {}),
    "banded_triangular_solve": ("[[1., 2., 3.], [4., 5., 6.]], N", {}),
    "diag": ("[[1., 2.], [3., 4.]]", {"k": "1", "num_rows": "4", "num_cols": "5",
                                      "padding_value": "9.", "align": Args(
                                          "[[1., 2.], [3., 4.]], k=(-1, 0), "
                                          "align='LEFT_LEFT'")}),
    "diag_part": ("np.arange(12.).reshape(3, 4)", {"k": "1", "padding_value": "9.",
                                                   "align": Args(
                                                       "np.arange(12.).reshape(3, 4), "
                                                       "k=(-1, 1), align='LEFT_LEFT', "
                                                       "padding_value=9.")}),
    "set_diag": ("N, V3", {"k": Args("N, [1., 2.], k=1"), "align": Args(
        "N, [[1., 2., 3.], [4., 5., 0.]], k=(-1, 0), align='LEFT_LEFT'")}),
    "eigh_tridiagonal": ("[1., 2., 3.], [0.5, 0.25]", {
        "eigvals_only": "False", "select": Args("[1., 2., 3.], [0.5, 0.25], select='i', "
                                                "select_range=[0, 1]"),
        "select_range": Args("[1., 2., 3.], [0.5, 0.25], select='v', "
                             "select_range=[0.5, 2.5]"), "tol": "1e-3"}),
    "lstsq": ("N, M", {"l2_regularizer": "0.5", "fast": "False"}),
    "lu": ("N", {"output_idx_type": "tf.int64"}),
    "lu_matrix_inverse": ("*tf.linalg.lu(N)", {}), "lu_reconstruct": ("*tf.linalg.lu(N)", {}),
    "lu_solve": ("*tf.linalg.lu(N), M", {}),
    "matrix_rank": ("[[1., 2.], [2., 4.0001]]", {"tol": "0.01"}),
    "matrix_transpose": ("CM", {}), "matvec": ("M, V3", {}),
    "normalize": ("X", {"ord": "1", "axis": "0"}),
    "pinv": ("X", {"rcond": "0.5"}), "qr": ("X.T", {}), "solve": ("N, M", {}),
    "svd": ("X", {"compute_uv": "False",
                  "full_matrices": Args("X, full_matrices=True, compute_uv=False")}),
    "triangular_solve": ("M, N", {}),
    "tridiagonal_matmul": ("TRI, M", {
        "diagonals_format": Args("TRI_SEQ, M, diagonals_format='sequence'")}),
    "tridiagonal_solve": ("tf.constant(TRI), tf.constant(M)", {
        "diagonals_format": Args("tuple(map(tf.constant, TRI_SEQ)), tf.constant(M), "
                                 "diagonals_format='sequence'"),
        "transpose_rhs": "True", "conjugate_rhs": "True", "partial_pivoting": "False",
        "perturb_singular": Args("tf.constant(TRI * [[1.], [0.], [1.]]), tf.constant(M), "
                                 "perturb_singular=True")}),
}

SIGNAL = {
    "dct": ("SIG2", {"type": ["1", "3", "4"], "n": "8", "axis": "-1", "norm": "'ortho'"}),
    "idct": ("SIG2", {"type": "1", "n": "8", "axis": "-1", "norm": Args(
        "SIG2, norm='ortho'")}),
    "fft": ("C", {}), "ifft": ("C", {}), "fft2d": ("C", {}), "ifft2d": ("C", {}),
    "fft3d": ("C[None]", {}), "ifft3d": ("C[None]", {}),
    "tf.signal.fftnd": NO_CPU_KERNEL, "tf.signal.ifftnd": NO_CPU_KERNEL,
    "tf.signal.rfftnd": NO_CPU_KERNEL, "tf.signal.irfftnd": NO_CPU_KERNEL,
    "rfft": ("SIG2", {"fft_length": "[10]"}), "irfft": ("C", {"fft_length": "[6]"}),
    "rfft2d": ("SIG2", {"fft_length": "[4, 10]"}), "irfft2d": ("C", {"fft_length": "[4, 6]"}),
    "rfft3d": ("SIG2[None]", {"fft_length": "[1, 4, 10]"}),
    "irfft3d": ("C[None]", {"fft_length": "[1, 4, 6]"}),
    "fftshift": ("X", {"axes": "1"}), "ifftshift": ("X", {"axes": "1"}),
    "frame": ("SIG2, 5, 3", {"pad_end": "True", "pad_value": "9.", "axis": "0"}),
    "overlap_and_add": ("SIG2.reshape(4, 8), 4", {}),
    "hamming_window": ("6", {"dtype": "tf.float64"}), "hann_window": ("6", {
        "dtype": "tf.float64"}),
    "kaiser_window": ("6", {"beta": "3.", "dtype": "tf.float64"}),
    "kaiser_bessel_derived_window": ("6", {"beta": "3.", "dtype": "tf.float64"}),
    "vorbis_window": ("6", {"dtype": "tf.float64"}),
    "linear_to_mel_weight_matrix": ("", {
        "num_mel_bins": "5", "num_spectrogram_bins": "9", "sample_rate": "8000",
        "lower_edge_hertz": "100.", "upper_edge_hertz": "3000.", "dtype": "tf.float64"}),
    "mfccs_from_log_mel_spectrograms": ("SIG2.reshape(4, 8)", {}),
    "stft": ("SIG2, 8, 4", {"fft_length": "10", "window_fn": "tf.signal.hamming_window",
                            "pad_end": "True"}),
    "inverse_stft": ("tf.signal.stft(SIG2, 8, 4), 8, 4", {
        "fft_length": Args("tf.signal.stft(SIG2, 8, 4, fft_length=10), 8, 4, fft_length=10"),
        "window_fn": "tf.signal.inverse_stft_window_fn(4)"}),
    "inverse_stft_window_fn": Skip("returns a Python function: its windows are checked by "
                                   "inverse_stft(window_fn)"),
    "mdct": ("SIG2, 8", {"window_fn": "tf.signal.kaiser_bessel_derived_window",
                         "pad_end": "True", "norm": "'ortho'"}),
    "inverse_mdct": ("tf.signal.mdct(SIG2, 8)", {
        "window_fn": "tf.signal.kaiser_bessel_derived_window", "norm": "'ortho'"}),
}

IMAGE = {
    "adjust_brightness": ("IMG, 0.2", {}), "adjust_contrast": ("IMG, 1.5", {}),
    "adjust_gamma": ("IMG", {"gamma": "2.", "gain": "0.5"}),
    "adjust_hue": ("IMG, 0.2", {}), "adjust_saturation": ("IMG, 1.5", {}),
    "central_crop": ("IMG6, 0.5", {}),
    "combined_non_max_suppression": ("BOXES[None, :, None, :], np.stack([SCORES, SCORES[::-1]], "
                                     "1)[None], 2, 4", {
                                         "iou_threshold": "0.2", "score_threshold": "0.55",
                                         "pad_per_class": "True", "clip_boxes": "False"}),
    "convert_image_dtype": ("IMG, tf.uint8", {"saturate": Args("IMG * 2, tf.uint8, "
                                                               "saturate=True")}),
    "crop_and_resize": ("IMG6, [[0., 0., 0.5, 0.5], [0.2, 0.1, 1.2, 0.9]], [0, 0], [3, 3]", {
        "method": "'nearest'", "extrapolation_value": "9."}),
    "crop_to_bounding_box": ("IMG6, 1, 2, 3, 2", {}),
    "pad_to_bounding_box": ("IMG, 1, 2, 6, 7", {}),
    "draw_bounding_boxes": ("IMG6, [[[0.1, 0.2, 0.6, 0.7]]], [[1., 0., 0., 1.]]", {}),
    "extract_glimpse": ("IMG6, [3, 3], [[0.1, -0.2]], noise='zero'", {
        "centered": "False", "normalized": "False",
        "noise": Skip("given in the base call ('uniform' and 'gaussian' are random)")}),
    "extract_patches": ("IMG6, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], 'VALID'", {}),
    "flip_left_right": ("IMG", {}), "flip_up_down": ("IMG", {}), "tf.image.transpose": ("IMG", {}),
    "grayscale_to_rgb": ("tf.constant(IMG[..., :1])", {}), "rgb_to_grayscale": ("IMG", {}),
    "hsv_to_rgb": ("IMG", {}), "rgb_to_hsv": ("IMG", {}), "rgb_to_yiq": ("IMG", {}),
    "yiq_to_rgb": ("IMG", {}), "rgb_to_yuv": ("IMG", {}), "yuv_to_rgb": ("IMG", {}),
    "image_gradients": ("tf.constant(IMG)", {}),
    "sobel_edges": ("tf.constant(IMG)", {}), "total_variation": ("tf.constant(IMG)", {}), "per_image_standardization": ("IMG", {}),
    "psnr": ("IMG, IMG * 0.9, 1.0", {}),
    "ssim": ("IMG16, IMG16 * 0.9, 1.0", {"filter_size": "5", "filter_sigma": "0.8",
                                        "k1": "0.02", "k2": "0.05",
                                        "return_index_map": "True"}),
    "ssim_multiscale": ("IMG16, IMG16 * 0.9, 1.0, power_factors=(0.6, 0.4), filter_size=3", {
        "power_factors": Skip("given in the base call: the default's five scales need images "
                              "of at least 161 pixels"),
        "filter_size": Skip("given in the base call"),
        "filter_sigma": "0.8", "k1": "0.02", "k2": "0.05"}),
    "non_max_suppression": ("BOXES, SCORES, 3", {"iou_threshold": "0.05",
                                                 "score_threshold": "0.55"}),
    "non_max_suppression_overlaps": ("np.eye(6, dtype=np.float32) * 0.5 + 0.3, SCORES, 3", {
        "overlap_threshold": "0.9", "score_threshold": "0.55"}),
    "non_max_suppression_padded": ("tf.constant(BOXES), tf.constant(SCORES), 4", {
        "iou_threshold": "0.05", "score_threshold": "0.55", "pad_to_max_output_size": "True",
        "sorted_input": Args("tf.constant(BOXES[np.argsort(-SCORES)]), "
                             "tf.constant(np.sort(SCORES)[::-1]), 4, sorted_input=True"),
        "canonicalized_coordinates": "True", "tile_size": "2"}),
    "non_max_suppression_with_scores": ("BOXES, SCORES, 3", {
        "iou_threshold": "0.05", "score_threshold": "0.55", "soft_nms_sigma": "0.5"}),
    "generate_bounding_box_proposals": Skip("covered by tests/test_image_ssim_nms_glimpses.py"),
    "resize": ("IMG, [6, 5]", {"method": ["'nearest'", "'bicubic'", "'area'", "'lanczos3'",
                                          "'mitchellcubic'", "'gaussian'"],
                               "preserve_aspect_ratio": "True", "antialias": Args(
                                   "IMG6, [4, 3], antialias=True")}),
    "resize_with_crop_or_pad": ("IMG, 6, 3", {}),
    "resize_with_pad": ("IMG, 6, 5", {"method": "'nearest'", "antialias": "True"}),
    "rot90": ("IMG", {"k": "3"}),
    "adjust_jpeg_quality": FILE_FORMAT, "decode_and_crop_jpeg": FILE_FORMAT,
    "decode_bmp": FILE_FORMAT, "decode_gif": FILE_FORMAT, "decode_image": FILE_FORMAT,
    "decode_jpeg": FILE_FORMAT, "decode_jxl": FILE_FORMAT, "decode_png": FILE_FORMAT,
    "decode_webp": FILE_FORMAT, "encode_jpeg": FILE_FORMAT, "encode_png": FILE_FORMAT,
    "extract_jpeg_shape": FILE_FORMAT, "is_jpeg": FILE_FORMAT,
    "random_brightness": RANDOM, "random_contrast": RANDOM, "random_crop": RANDOM,
    "random_flip_left_right": RANDOM, "random_flip_up_down": RANDOM, "random_hue": RANDOM,
    "random_jpeg_quality": RANDOM, "random_saturation": RANDOM,
    "sample_distorted_bounding_box": RANDOM, "stateless_random_brightness": RANDOM,
    "stateless_random_contrast": RANDOM, "stateless_random_crop": RANDOM,
    "stateless_random_flip_left_right": RANDOM, "stateless_random_flip_up_down": RANDOM,
    "stateless_random_hue": RANDOM, "stateless_random_jpeg_quality": RANDOM,
    "stateless_random_saturation": RANDOM, "stateless_sample_distorted_bounding_box": RANDOM,
}

STRINGS = {
    "bytes_split": ("S", {}), "strip": ("S", {}), "unicode_script": ("[72, 1078, 20013]", {}),
    "format": ("'{} and {}', [X, I]", {"placeholder": Args("'%s and %s', [X, I], "
                                                           "placeholder='%s'"),
                                      "summarize": "1"}),
    "join": ("[S, S[::-1]]", {}), "length": ("US", {}),
    "lower": ("S", {"encoding": "'utf-8'"}), "upper": ("S", {"encoding": "'utf-8'"}),
    "ngrams": ("S2, 2", {"separator": "'+'", "pad_values": "('<', '>')", "padding_width": Args("S2, 2, pad_values='#', padding_width=1"),
                         "preserve_short_sequences": Args("S2, 4, "
                                                          "preserve_short_sequences=True")}),
    "reduce_join": ("S2", {}),
    "regex_full_match": ("S, '.*o.*'", {}),
    "regex_replace": ("S, 'o|l', '_'", {"replace_global": "False"}),
    "tf.strings.split": ("S", {"sep": "','", "maxsplit": "1"}),
    "substr": ("US, 1, 3", {}),
    "to_hash_bucket": ("S, 7", {}), "to_hash_bucket_fast": ("S, 7", {}),
    "to_hash_bucket_strong": ("S, 7, [1, 2]", {}),
    "to_number": ("['1.5', '-2', '3e2']", {"out_type": "tf.float64"}),
    "unicode_decode": ("US, 'UTF-8'", {
        "errors": Args("[b'a\\xffb'], 'UTF-8', errors='ignore'"),
        "replacement_char": Args("[b'a\\xffb'], 'UTF-8', replacement_char=63"),
        "replace_control_characters": Args("[b'a\\x01b'], 'UTF-8', "
                                           "replace_control_characters=True")}),
    "unicode_decode_with_offsets": ("US, 'UTF-8'", {
        "errors": Args("[b'a\\xffb'], 'UTF-8', errors='ignore'"),
        "replacement_char": Args("[b'a\\xffb'], 'UTF-8', replacement_char=63"),
        "replace_control_characters": Args("[b'a\\x01b'], 'UTF-8', "
                                           "replace_control_characters=True")}),
    "unicode_split": ("US, 'UTF-8'", {
        "errors": Args("[b'a\\xffb'], 'UTF-8', errors='ignore'"),
        "replacement_char": Args("[b'a\\xffb'], 'UTF-8', replacement_char=63")}),
    "unicode_split_with_offsets": ("US, 'UTF-8'", {
        "errors": Args("[b'a\\xffb'], 'UTF-8', errors='ignore'"),
        "replacement_char": Args("[b'a\\xffb'], 'UTF-8', replacement_char=63")}),
    "unicode_encode": ("[[104, 233], [252, 33]], 'UTF-8'", {
        "errors": Args("[[104, -5]], 'UTF-8', errors='ignore'"),
        "replacement_char": Args("[[104, -5]], 'UTF-8', replacement_char=63")}),
    "unicode_transcode": ("US, 'UTF-8', 'UTF-16-BE'", {
        "errors": Args("[b'a\\xffb'], 'UTF-8', 'UTF-8', errors='ignore'"),
        "replacement_char": Args("[b'a\\xffb'], 'UTF-8', 'UTF-8', replacement_char=63"),
        "replace_control_characters": Args("[b'a\\x01b'], 'UTF-8', 'UTF-8', "
                                           "replace_control_characters=True")}),
    "unsorted_segment_join": ("S, [1, 0, 1], 3", {}),
}

TABLE = {**NN, **LINALG, **SIGNAL, **IMAGE, **STRINGS}
