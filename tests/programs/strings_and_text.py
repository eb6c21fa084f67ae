"""Text preprocessing with tf.strings as input pipelines use it: lower-casing, splitting,
joining, regex replacement, substrings, number parsing, lengths, and Keras TextVectorization
adapted on a small corpus."""
import tensorflow as tf

lines = tf.constant(["The quick brown Fox", "jumps over the lazy dog", "THE END"])
lower = tf.strings.lower(lines)
print("lower:", [s.decode() for s in lower.numpy()])
print("length:", tf.strings.length(lines).numpy().tolist())
print("replaced:", [s.decode() for s in tf.strings.regex_replace(lower, "[aeiou]", "_").numpy()])
print("substr:", [s.decode() for s in tf.strings.substr(lines, 0, 3).numpy()])
print("joined:", tf.strings.join(["a", "b", "c"], separator="-").numpy().decode())
print("numbers:", tf.strings.to_number(tf.constant(["1.5", "-2", "3e2"])).numpy().tolist())
print("reduce_join:", tf.strings.reduce_join(tf.constant(["x", "y", "z"])).numpy().decode())
print("as_string:", [s.decode() for s in tf.strings.as_string(tf.constant([1, 22])).numpy()])

vectorizer = tf.keras.layers.TextVectorization(max_tokens=12, output_sequence_length=5)
vectorizer.adapt(lower)
print("vocabulary:", vectorizer.get_vocabulary())
print("vectorized:", vectorizer(tf.constant(["the lazy fox", "unknown words here"])).numpy().tolist())
