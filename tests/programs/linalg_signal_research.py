"""Research-style numerics: a least-squares fit by tf.linalg.lstsq and by Cholesky of the normal
equations, the gradient of a log-determinant, eigenvalues of a symmetric matrix, and a
spectrum by tf.signal.rfft, with and without a Hann window."""
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(14)
A = tf.constant(rng.normal(size=(20, 3)))
b = tf.constant(rng.normal(size=(20, 1)))
x1 = tf.linalg.lstsq(A, b)
gram = tf.matmul(A, A, transpose_a=True)
x2 = tf.linalg.cholesky_solve(tf.linalg.cholesky(gram), tf.matmul(A, b, transpose_a=True))
print("lstsq:", np.round(x1.numpy().ravel(), 6).tolist())
print("normal equations agree:", bool(np.allclose(x1, x2)))

S = tf.Variable(gram)
with tf.GradientTape() as tape:
    logdet = tf.linalg.logdet(S)
grad = tape.gradient(logdet, S)
print("logdet:", round(float(logdet), 6), "grad is inverse:",
      bool(np.allclose(grad, np.linalg.inv(gram.numpy()))))
print("eigenvalues:", np.round(tf.linalg.eigvalsh(gram).numpy(), 5).tolist())

t = np.arange(64) / 64.0
signal = tf.constant(np.sin(2 * np.pi * 5 * t) + 0.5 * np.sin(2 * np.pi * 12 * t), tf.float32)
spectrum = tf.abs(tf.signal.rfft(signal))
peaks = tf.math.top_k(spectrum, k=2).indices
print("peaks:", sorted(peaks.numpy().tolist()))
windowed = tf.abs(tf.signal.rfft(signal * tf.signal.hann_window(64)))
print("windowed energy:", round(float(tf.reduce_sum(windowed ** 2)), 3))
frames = tf.signal.frame(signal, frame_length=16, frame_step=8)
print("frames:", frames.shape, "stft:", tf.signal.stft(signal, 16, 8).shape)
