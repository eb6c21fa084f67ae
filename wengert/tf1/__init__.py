"""TensorFlow 1's functions that TensorFlow 2 renamed, reordered or dropped, over today's ops:
casts by target type (conversions.py), Python 2 division and the old argument orders of
arithmetic (arithmetic.py), random names (sampling.py), space/depth/batch moves (reshaping.py),
string and record parsers (text.py), assertions that take `data` (asserts.py), and the switches
and scopes of TensorFlow 1 (behaviour.py). `tf.compat.v1` exports them."""
