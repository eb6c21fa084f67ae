"""tf.linalg's op families over the base: decompositions, solves, eigenproblems, matrix functions,
least squares, norms, tridiagonal systems and TensorFlow's composite LU helpers."""
