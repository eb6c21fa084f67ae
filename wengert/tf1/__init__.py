"""TensorFlow 1's functions that TensorFlow 2 renamed, reordered or dropped, over today's ops:
casts by target type (conversions.py), Python 2 division and the old argument orders of
arithmetic (arithmetic.py), random names (sampling.py), space/depth/batch moves (reshaping.py),
string and record parsers (text.py), assertions that take `data` (asserts.py), the switches and
scopes of TensorFlow 1 (behaviour.py), `compat.v1.losses` (losses.py) and the streaming
`compat.v1.metrics` (metric_*.py, metrics_*.py), the recurrent cells and loops of
`compat.v1.nn` (rnn_cell*.py, dynamic_rnn.py, static_rnn.py, raw_rnn.py), and `flags` with
`app.run` (flags.py, app.py). TensorFlow 1's dataset iterators and Dataset methods live with
the datasets (data/graph_iterators.py, data/dataset_v1_methods.py).
`tf.compat.v1` exports them."""
