"""tf.signal: discrete Fourier and cosine transforms, framing, windows, short-time transforms and
mel-scale spectrograms."""
