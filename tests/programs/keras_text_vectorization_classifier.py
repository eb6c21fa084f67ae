"""TensorFlow's "Basic text classification" tutorial on a small synthetic corpus: a
TextVectorization layer adapted to the text, an Embedding with GlobalAveragePooling1D, binary
cross-entropy with accuracy, and an export model that takes raw strings."""
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(31)
good = ["great", "good", "fine", "wonderful", "lovely"]
bad = ["bad", "awful", "poor", "terrible", "boring"]
filler = ["the", "movie", "was", "a", "plot", "and", "acting", "very"]
texts, labels = [], []
for i in range(96):
    positive = i % 2 == 0
    words = list(rng.choice(filler, 4)) + list(rng.choice(good if positive else bad, 2))
    rng.shuffle(words)
    texts.append(" ".join(words).capitalize() + ("!" if i % 3 == 0 else "."))
    labels.append(1.0 if positive else 0.0)
texts = np.array(texts)
labels = np.array(labels, dtype="float32")

vectorize = keras.layers.TextVectorization(max_tokens=40, output_mode="int",
                                           output_sequence_length=8)
vectorize.adapt(texts)
vocabulary = vectorize.get_vocabulary()
print("vocabulary size:", len(vocabulary), "first:", ", ".join(vocabulary[:6]))
print("vectorized:", vectorize(texts[:2]).numpy().tolist())

model = keras.Sequential([
    keras.Input(shape=(8,), dtype="int64"),
    keras.layers.Embedding(40, 8),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(1)])
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.2 for w in model.get_weights()])
model.compile(loss=keras.losses.BinaryCrossentropy(from_logits=True), optimizer="adam",
              metrics=[keras.metrics.BinaryAccuracy(threshold=0.0)])
history = model.fit(vectorize(texts), labels, epochs=4, batch_size=16, shuffle=False, verbose=0)
print("loss:", [round(v, 5) for v in history.history["loss"]])
print("accuracy:", [round(v, 4) for v in history.history["binary_accuracy"]])

export_model = keras.Sequential([keras.Input(shape=(1,), dtype="string"), vectorize, model,
                                 keras.layers.Activation("sigmoid")])
probs = export_model.predict(tf.constant([["The movie was great"], ["Terrible and boring"]]),
                             verbose=0)
print("export predictions:", np.round(probs.ravel(), 4).tolist())
