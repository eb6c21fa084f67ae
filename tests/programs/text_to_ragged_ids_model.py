"""Text tokenised to ragged ids and fed to a Keras model, as TensorFlow tutorials do it without
padding: tf.strings cleans and splits sentences into a RaggedTensor of words, a StringLookup
turns them into ragged ids, and a model on keras.Input(ragged=True) (Embedding, a mean over
each row, Dense) trains on a tf.data pipeline of ragged batches, evaluates and predicts; the
ragged tensors are printed along the way (unicode characters, n-grams, slicing with a step)."""
import numpy as np
import tensorflow as tf
from tensorflow import keras

sentences = tf.constant([
    "The cat sat on the mat.", "Dogs bark!", "A café in Zürich", "the dog, the cat",
    "Birds sing at dawn", "Cats purr", "A loud dog barks at the CAT", "Quiet evening",
])
labels = np.array([[1.], [0.], [0.], [1.], [0.], [1.], [1.], [0.]], np.float32)

clean = tf.strings.regex_replace(tf.strings.lower(sentences), r"[^a-z\x80-\xff ]", "")
words = tf.strings.split(clean)
print("words:", words.shape, words.row_lengths().numpy().tolist())
print("first:", words[0].numpy().tolist())
print("every other word, reversed:", words[:2, ::-2].to_list())
print("bigrams:", tf.strings.ngrams(words[:2], 2, separator="_").to_list())
print("word lengths:", tf.strings.length(words[2], unit="UTF8_CHAR").numpy().tolist())
chars, offsets = tf.strings.unicode_split_with_offsets(sentences[2], "UTF-8")
print("characters:", chars.shape, offsets.numpy().tolist())
codes = tf.strings.unicode_decode(words[2], "UTF-8")
print("code points:", codes.to_list())
print("scripts:", tf.strings.unicode_script(codes.flat_values).numpy().tolist())
print("rejoined:", tf.strings.reduce_join(words[:3], axis=1, separator=" ").numpy().tolist())

vocabulary = ["the", "cat", "dog", "a", "at", "cats", "dogs", "bark", "sat", "on", "mat"]
lookup = keras.layers.StringLookup(vocabulary=vocabulary)
ids = lookup(words)
print("ids:", ids.to_list())
print("hashed:", keras.layers.Hashing(7)(words[:2]).to_list())

inputs = keras.Input(shape=(None,), ragged=True, dtype="int64")
x = keras.layers.Embedding(len(vocabulary) + 1, 4, embeddings_initializer=keras.initializers.Constant(
    np.linspace(-1, 1, (len(vocabulary) + 1) * 4).reshape(-1, 4)))(inputs)
x = keras.layers.Lambda(lambda t: tf.reduce_mean(t, axis=1), output_shape=(4,))(x)
outputs = keras.layers.Dense(1, activation="sigmoid", kernel_initializer=keras.initializers.Constant(
    [[0.5], [-0.25], [0.75], [0.1]]))(x)
model = keras.Model(inputs, outputs)
model.compile(keras.optimizers.SGD(0.5), "binary_crossentropy", metrics=["accuracy"])

dataset = tf.data.Dataset.from_tensor_slices((ids, labels)).batch(3)
history = model.fit(dataset, epochs=4, verbose=0)
print("loss:", [round(v, 4) for v in history.history["loss"]])
print("evaluate:", [round(v, 4) for v in model.evaluate(dataset, verbose=0)])
print("predict:", np.round(model.predict(ids, verbose=0).ravel(), 4).tolist())

new = tf.strings.split(tf.strings.lower(tf.constant(["the cat", "dogs bark at dawn"])))
print("new:", np.round(model.predict(lookup(new), verbose=0).ravel(), 4).tolist())
