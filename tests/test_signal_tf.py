"""tf.signal (framing, windows, shifts, mel weights, DCTs) against TensorFlow 2.21: values and
gradients, when TensorFlow is installed; second-order DCT gradients by finite differences."""
import numpy as np
import pytest
import scipy.fft

import wengert as tf
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.testing import check_grads

RNG = np.random.default_rng(17)


def sig(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def _dct_cases():
    cases = []
    for kind in ("dct", "idct"):
        for t in (1, 2, 3, 4):
            for norm in ((None,) if t == 1 else (None, "ortho")):
                for n in (None, 5, 11):
                    fn = getattr(tf.signal, kind)
                    cases.append(TFCase(
                        f"{kind}{t}_{norm}_{n}",
                        f"tf.signal.{kind}(x0, type={t}, n={n}, norm={norm!r})",
                        lambda x, fn=fn, t=t, n=n, norm=norm: fn(x, type=t, n=n, norm=norm),
                        [sig(3, 2, 8)], wrt=(0,)))
    return cases


CASES = [
    TFCase("frame", "tf.signal.frame(x0, 4, 3)", lambda x: tf.signal.frame(x, 4, 3),
           [sig(2, 11)], wrt=(0,)),
    TFCase("frame_pad_end", "tf.signal.frame(x0, 4, 3, pad_end=True, pad_value=2.)",
           lambda x: tf.signal.frame(x, 4, 3, pad_end=True, pad_value=2.), [sig(10)], wrt=(0,)),
    TFCase("frame_axis0", "tf.signal.frame(x0, 3, 2, axis=0)",
           lambda x: tf.signal.frame(x, 3, 2, axis=0), [sig(7, 2, 3)], wrt=(0,)),
    TFCase("frame_axis1_pad", "tf.signal.frame(x0, 3, 2, pad_end=True, axis=1)",
           lambda x: tf.signal.frame(x, 3, 2, pad_end=True, axis=1), [sig(2, 6, 3)], wrt=(0,)),
    TFCase("overlap_and_add", "tf.signal.overlap_and_add(x0, 3)",
           lambda x: tf.signal.overlap_and_add(x, 3), [sig(2, 3, 5, 4)], wrt=(0,)),
    TFCase("overlap_and_add_gaps", "tf.signal.overlap_and_add(x0, 5)",
           lambda x: tf.signal.overlap_and_add(x, 5), [sig(4, 3)], wrt=(0,)),
    TFCase("fftshift", "tf.signal.fftshift(x0)", tf.signal.fftshift, [sig(5, 6)], wrt=(0,)),
    TFCase("ifftshift_axes", "tf.signal.ifftshift(x0, axes=[0, 2])",
           lambda x: tf.signal.ifftshift(x, axes=[0, 2]), [sig(5, 2, 7)], wrt=(0,)),
    TFCase("hann", "tf.signal.hann_window(7, periodic=False)",
           lambda x: tf.signal.hann_window(7, periodic=False), [sig(1)]),
    TFCase("hamming", "tf.signal.hamming_window(8)", lambda x: tf.signal.hamming_window(8),
           [sig(1)]),
    TFCase("kaiser", "tf.signal.kaiser_window(9, beta=4.)",
           lambda x: tf.signal.kaiser_window(9, beta=4.), [sig(1)]),
    TFCase("kbd", "tf.signal.kaiser_bessel_derived_window(10, beta=6.)",
           lambda x: tf.signal.kaiser_bessel_derived_window(10, beta=6.), [sig(1)]),
    TFCase("vorbis", "tf.signal.vorbis_window(6)", lambda x: tf.signal.vorbis_window(6),
           [sig(1)]),
    TFCase("mel", "tf.signal.linear_to_mel_weight_matrix(40, 257, 16000, 20., 8000.)",
           lambda x: tf.signal.linear_to_mel_weight_matrix(40, 257, 16000, 20., 8000.),
           [sig(1)], rtol=2e-4, atol=1e-5),
    TFCase("mfccs", "tf.signal.mfccs_from_log_mel_spectrograms(x0)",
           tf.signal.mfccs_from_log_mel_spectrograms, [sig(2, 3, 13, dtype=np.float32)],
           wrt=(0,), rtol=1e-4, atol=1e-5),
    TFCase("mdct", "tf.signal.mdct(x0, 8)", lambda x: tf.signal.mdct(x, 8), [sig(2, 30)],
           wrt=(0,)),
    TFCase("mdct_ortho_pad", "tf.signal.mdct(x0, 12, window_fn=None, pad_end=True, norm='ortho')",
           lambda x: tf.signal.mdct(x, 12, window_fn=None, pad_end=True, norm="ortho"),
           [sig(29)], wrt=(0,)),
    TFCase("inverse_mdct", "tf.signal.inverse_mdct(x0)", tf.signal.inverse_mdct, [sig(2, 5, 4)],
           wrt=(0,)),
    TFCase("inverse_mdct_kbd",
           "tf.signal.inverse_mdct(x0, window_fn=tf.signal.kaiser_bessel_derived_window, "
           "norm='ortho')",
           lambda x: tf.signal.inverse_mdct(x, window_fn=tf.signal.kaiser_bessel_derived_window,
                                            norm="ortho"), [sig(3, 6)], wrt=(0,)),
    TFCase("inverse_stft_window", "tf.signal.inverse_stft_window_fn(3)(8, tf.float64)",
           lambda x: tf.signal.inverse_stft_window_fn(3)(8, tf.float64), [sig(1)]),
    TFCase("inverse_stft_window_hamming",
           "tf.signal.inverse_stft_window_fn(4, tf.signal.hamming_window)(10, tf.float32)",
           lambda x: tf.signal.inverse_stft_window_fn(4, tf.signal.hamming_window)(
               10, tf.float32), [sig(1)], rtol=1e-5, atol=1e-6),
] + _dct_cases()


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name], rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("t,norm", [(1, None), (2, None), (2, "ortho"), (3, None),
                                    (3, "ortho"), (4, "ortho")])
def test_dct_matches_scipy(t, norm):
    x = sig(4, 9)
    np.testing.assert_allclose(tf.signal.dct(x, type=t, norm=norm).numpy(),
                               scipy.fft.dct(x, type=t, norm=norm), rtol=1e-10, atol=1e-12)
    if norm == "ortho":
        np.testing.assert_allclose(tf.signal.idct(x, type=t, norm=norm).numpy(),
                                   scipy.fft.idct(x, type=t, norm=norm), rtol=1e-10, atol=1e-12)
    assert tf.signal.dct(x.astype(np.float32), type=t, norm=norm).dtype == tf.float32


@pytest.mark.parametrize("t,norm", [(2, None), (3, "ortho"), (2, "ortho")])
def test_dct_gradients_to_second_order(t, norm):
    check_grads(lambda x: tf.reduce_sum(tf.sin(tf.signal.dct(x, type=t, norm=norm, n=6))),
                [sig(2, 5)], order=2)
    check_grads(lambda x: tf.reduce_sum(tf.signal.idct(x, type=t, norm=norm) ** 3),
                [sig(7)], order=2)


def test_overlap_and_add_and_frame_gradients_to_second_order():
    check_grads(lambda x: tf.reduce_sum(tf.signal.overlap_and_add(x, 2) ** 3), [sig(3, 4)],
                order=2)
    check_grads(lambda x: tf.reduce_sum(tf.signal.frame(x, 3, 2, pad_end=True) ** 3), [sig(8)],
                order=2)


def test_mdct_round_trip():
    x = sig(2, 40)
    back = tf.signal.inverse_mdct(tf.signal.mdct(x, 8)).numpy()
    np.testing.assert_allclose(back[:, 4:-4], x[:, 4:36], atol=1e-12)
    with pytest.raises(ValueError, match="multiple of 4"):
        tf.signal.mdct(x, 6)


def test_dct_checks_its_arguments():
    with pytest.raises(ValueError, match="type-I"):
        tf.signal.dct(sig(5), type=1, norm="ortho")
    with pytest.raises(NotImplementedError, match="axis"):
        tf.signal.dct(sig(5, 2), axis=0)
    with pytest.raises(ValueError, match="type must be"):
        tf.signal.idct(sig(5), type=5)
    with pytest.raises(ValueError, match="positive"):
        tf.signal.dct(sig(5), n=0)
