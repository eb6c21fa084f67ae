"""STFTSpectrogram, MelSpectrogram and HashedCrossing: spectrograms against NumPy's rfft of
windowed frames, gradients against finite differences in float64, configs and `.keras` files
round-tripped, training under fit, Keras's argument errors, HashedCrossing's bins against
tf.sparse.cross_hashed's hash written out, and every layer against TensorFlow 2.21's Keras."""
import numpy as np
import pytest

import wengert as tf
from keras_checks import check_layer_gradients
from keras_layer_lifecycle import check_config_round_trip, check_fit_and_saved_model
from tf_reference import Case, assert_matches, run_tf, tf_python

L = tf.keras.layers
RNG = np.random.default_rng(53)
F64 = {"dtype": "float64"}
SIGNAL = RNG.normal(size=(2, 60, 2))
MONO = RNG.normal(size=(2, 200))


def _hann(n, periodic):
    m = n if periodic else n - 1
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / m)


def _stft_numpy(x, frame_length, step, fft_length, periodic=False):
    """[batch, time, channels] -> complex [batch, frames, channels, F], density-scaled."""
    w = _hann(frame_length, periodic)
    w = w / np.sqrt(np.sum(w ** 2))
    count = (x.shape[1] - frame_length) // step + 1
    frames = np.stack([x[:, i * step:i * step + frame_length] for i in range(count)], 1)
    return np.fft.rfft(frames * w[None, None, :, None], n=fft_length, axis=2).transpose(
        0, 1, 3, 2)


def _unwrapped(angles, reference):
    """`angles` moved by whole turns to the side of the branch cut `reference` is on (at the
    DC and Nyquist bins the imaginary part is zero up to rounding, so the sign of pi is
    arbitrary)."""
    return reference + np.angle(np.exp(1j * (angles - reference)))


def test_stft_spectrogram_matches_numpy():
    z = _stft_numpy(SIGNAL, 16, 8, 32)
    flat = lambda a: a.reshape(2, a.shape[1], -1)  # noqa: E731  (channel-major bins)
    cases = {"real": z.real, "imag": z.imag, "angle": np.angle(z),
             "magnitude": np.abs(z), "log": np.log(np.abs(z))}
    for mode, want in cases.items():
        layer = L.STFTSpectrogram(mode, frame_length=16, frame_step=8, fft_length=32, **F64)
        out = np.asarray(layer(SIGNAL))
        if mode == "angle":
            out = _unwrapped(out, flat(want))
        np.testing.assert_allclose(out, flat(want), rtol=1e-9, atol=1e-10, err_msg=mode)
    psd = np.abs(z) ** 2
    psd[..., 1:-1] *= 2
    np.testing.assert_allclose(np.asarray(L.STFTSpectrogram(
        "psd", frame_length=16, frame_step=8, fft_length=32, **F64)(SIGNAL)), flat(psd),
        rtol=1e-9, atol=1e-12)
    both = np.asarray(L.STFTSpectrogram("stft", frame_length=16, frame_step=8, fft_length=32,
                                        expand_dims=True, **F64)(SIGNAL))
    np.testing.assert_allclose(both, np.concatenate([z.real, z.imag], 3).transpose(0, 1, 3, 2),
                               rtol=1e-9, atol=1e-10)
    first = L.STFTSpectrogram("real", frame_length=16, data_format="channels_first", **F64)
    np.testing.assert_allclose(np.asarray(first(SIGNAL.transpose(0, 2, 1))),
                               flat(_stft_numpy(SIGNAL, 16, 8, 16).real).transpose(0, 2, 1),
                               rtol=1e-9, atol=1e-10)


def test_mel_spectrogram_matches_numpy():
    layer = L.MelSpectrogram(fft_length=64, sequence_stride=16, num_mel_bins=12,
                             sampling_rate=8000, min_freq=50.0, top_db=40.0, **F64)
    out = np.asarray(layer(MONO))
    padded = np.pad(MONO, [(0, 0), (32, 32)], mode="reflect")
    count = 1 + MONO.shape[1] // 16
    frames = np.stack([padded[:, i * 16:i * 16 + 64] for i in range(count)], 1)
    power = np.abs(np.fft.rfft(frames * _hann(64, True), axis=-1)) ** 2
    matrix = tf.signal.linear_to_mel_weight_matrix(12, 33, 8000, 50.0, 4000.0).numpy()
    db = 10 * np.log10(np.maximum(power @ matrix.astype(np.float64), 1e-10))
    db = np.maximum(db, db.max() - 40.0)
    np.testing.assert_allclose(out, db.transpose(0, 2, 1), rtol=1e-9, atol=1e-9)
    assert tuple(layer.compute_output_shape((None, 200))) == (None, 12, count)
    linear = L.MelSpectrogram(fft_length=64, sequence_stride=16, num_mel_bins=12,
                              power_to_db=False, mag_exp=1.0, **F64)
    assert np.asarray(linear(MONO)).min() >= 0


@pytest.mark.parametrize("make, x", [
    (lambda: L.STFTSpectrogram("magnitude", frame_length=6, frame_step=3, fft_length=8, **F64),
     SIGNAL[:1, :12, :1]),
    (lambda: L.STFTSpectrogram("log", frame_length=4, frame_step=2, padding="same", **F64),
     SIGNAL[:1, :8, :2]),
    (lambda: L.MelSpectrogram(fft_length=16, sequence_stride=8, num_mel_bins=4,
                              sampling_rate=1000, min_freq=10.0, top_db=500.0, **F64),
     MONO[:1, :24])])
def test_gradients(make, x):
    check_layer_gradients(make(), [x], rtol=1e-4, atol=1e-6)


def test_configs_fit_and_saved_models(tmp_path):
    check_config_round_trip(L.STFTSpectrogram("psd", frame_length=32, frame_step=4,
                                              fft_length=64, window="hamming", periodic=True,
                                              scaling="spectrum", padding="same"))
    check_config_round_trip(L.MelSpectrogram(fft_length=256, sequence_stride=64,
                                             num_mel_bins=20, max_freq=3000.0))
    check_config_round_trip(L.HashedCrossing(7, output_mode="one_hot"))
    check_fit_and_saved_model(lambda: L.STFTSpectrogram(frame_length=8, frame_step=4),
                              SIGNAL.astype("float32"), tmp_path)
    (tmp_path / "mel").mkdir()
    check_fit_and_saved_model(lambda: L.MelSpectrogram(fft_length=32, sequence_stride=16,
                                                       num_mel_bins=6, sampling_rate=1000),
                              MONO.astype("float32"), tmp_path / "mel",
                              head=L.Rescaling(0.01))  # decibels of order 100


def test_bad_arguments():
    with pytest.raises(ValueError, match="frame_step"):
        L.STFTSpectrogram(frame_length=8, frame_step=9)
    with pytest.raises(ValueError, match="fft_length"):
        L.STFTSpectrogram(frame_length=8, fft_length=4)
    with pytest.warns(UserWarning, match="power of two"):
        L.STFTSpectrogram(frame_length=8, fft_length=12)
    with pytest.raises(ValueError, match="Output mode is invalid"):
        L.STFTSpectrogram(mode="power")
    with pytest.raises(ValueError, match="Scaling is invalid"):
        L.STFTSpectrogram(scaling="l2")
    with pytest.raises(ValueError, match="Padding is invalid"):
        L.STFTSpectrogram(padding="causal")
    with pytest.raises(ValueError, match="ndim=3"):
        L.STFTSpectrogram(frame_length=8)(MONO)
    with pytest.raises(ValueError, match="sequence_length"):
        L.MelSpectrogram(fft_length=64, sequence_length=128)
    with pytest.raises(ValueError, match="output_mode"):
        L.HashedCrossing(4, output_mode="multi_hot")
    crossing = L.HashedCrossing(4)
    with pytest.raises(ValueError, match="at least two inputs"):
        crossing([np.array([1])])
    with pytest.raises(ValueError, match="list or tuple"):
        crossing(np.array([1, 2]))
    with pytest.raises(ValueError, match="equal shape"):
        crossing([np.array([1, 2]), np.array([1])])
    with pytest.raises(ValueError, match="integer or string"):
        crossing([np.array([1.0]), np.array([2.0])])


def _cross_numpy(a, b, bins):
    from wengert.keras.layers.hashing import fingerprint_cat64
    from wengert.ops.io.hashing import fingerprint64
    out = []
    for x, y in zip(a.ravel().tolist(), b.ravel().tolist()):
        h = fingerprint_cat64(0xDECAFCAFFE, int(x) & (2 ** 64 - 1))
        out.append(fingerprint_cat64(h, fingerprint64(y)) % bins)
    return np.array(out).reshape(a.shape)


def test_hashed_crossing_bins():
    a = np.array([[1], [2], [-3], [2]])
    b = np.array([[b"x"], [b"yy"], [b"z"], [b"yy"]])
    out = np.asarray(L.HashedCrossing(1000)([a, b]))
    assert out.dtype == np.int64 and out.shape == (4, 1)
    np.testing.assert_array_equal(out, _cross_numpy(a, b, 1000))
    assert out[1, 0] == out[3, 0]
    hot = np.asarray(L.HashedCrossing(1000, output_mode="one_hot")([a[:, 0], b[:, 0]]))
    np.testing.assert_array_equal(hot.argmax(-1), out[:, 0])
    assert np.asarray(L.HashedCrossing(10)([np.array(4), np.array(b"q")])).shape == ()
    inputs = [tf.keras.Input((1,), dtype="int64"), tf.keras.Input((1,), dtype="string")]
    model = tf.keras.Model(inputs, L.HashedCrossing(1000)(inputs))
    np.testing.assert_array_equal(model.predict([a, b], verbose=0), out)


def _tf_cases():
    """(TensorFlow's venv has no SciPy, which Keras needs for windows given by name: the STFT
    cases give theirs as arrays, the same numbers as the named windows.)"""
    hann16 = _hann(16, False).tolist()
    hamming12 = (0.54 - 0.46 * np.cos(2 * np.pi * np.arange(12) / 12)).tolist()
    ids = np.array([[1], [2], [-3], [2], [40]], "int64")
    words = np.array([[b"x"], [b"yy"], [b"z"], [b"yy"], [b""]])
    x32 = SIGNAL.astype("float32")
    return [Case(f"stft-{mode}", L.STFTSpectrogram(mode, frame_length=16, frame_step=8,
                                                   fft_length=32, window=hann16, **F64),
                 [SIGNAL])
            for mode in ("log", "magnitude", "psd", "real", "imag", "angle", "stft")] + [
        Case("stft-same-hamming", L.STFTSpectrogram(
            "magnitude", frame_length=12, frame_step=5, window=hamming12, periodic=True,
            scaling="spectrum", padding="same", expand_dims=True, **F64), [SIGNAL]),
        Case("stft-no-window-float32", L.STFTSpectrogram(
            "real", frame_length=8, window=None, scaling=None), [x32]),
        Case("mel-db", L.MelSpectrogram(fft_length=64, sequence_stride=16, num_mel_bins=12,
                                        sampling_rate=8000, min_freq=50.0, top_db=40.0),
             [MONO.astype("float32")]),
        Case("mel-linear", L.MelSpectrogram(fft_length=64, sequence_stride=20,
                                            sequence_length=48, num_mel_bins=8,
                                            power_to_db=False, mag_exp=1.0),
             [MONO.astype("float32")]),
        Case("mel-float32", L.MelSpectrogram(fft_length=128, sequence_stride=32,
                                             num_mel_bins=16, ref_power=2.0),
             [MONO.astype("float32")]),
        Case("crossing-int", L.HashedCrossing(97), [ids, words], list_input=True),
        Case("crossing-one-hot", L.HashedCrossing(5, output_mode="one_hot"),
             [ids[:, 0], ids[:, 0] * 7], list_input=True),
    ]


def test_matches_tensorflow_keras():
    cases = _tf_cases()
    results = run_tf(cases, tf_python())
    for case in cases:  # Keras's MelSpectrogram fails on float64 (it mixes in float32)
        tol = 1e-5 if "mel" in case.name or "float32" in case.name else 1e-9
        result = results[case.name]
        if case.name == "stft-angle":
            case.outputs = [_unwrapped(case.outputs[0], result["outputs"][0])]
        assert_matches(case, result, rtol=tol, atol=tol)
