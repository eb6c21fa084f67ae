"""A Keras model over a StringLookup vocabulary, trained on a tf.data pipeline that maps the
raw strings through the lookup layer, then served from a SavedModel: a tf.Module holds the
model and a tf.lookup table of label names, its tf.function takes raw strings, and
tf.saved_model.save / load keep the vocabulary, the label table and the weights."""
import os
import tempfile

import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(5)
colors = ["red", "green", "blue", "cyan", "amber"]
words = rng.choice(colors + ["violet", "grey"], size=64)
labels = np.array([1.0 if w in ("red", "amber", "violet") else 0.0 for w in words], "float32")

lookup = keras.layers.StringLookup(vocabulary=colors, num_oov_indices=1)
print("vocabulary:", lookup.get_vocabulary())
print("ids:", lookup(tf.constant(["blue", "violet", "red"])).numpy().tolist())

dataset = (tf.data.Dataset.from_tensor_slices((words, labels))
           .map(lambda w, y: (lookup(w), y))
           .batch(16))
print("first batch ids:", next(iter(dataset))[0].numpy().tolist())

model = keras.Sequential([keras.Input(shape=(), dtype="int64"),
                          keras.layers.Embedding(lookup.vocabulary_size(), 4),
                          keras.layers.Dense(1)])
model.set_weights([rng.normal(size=w.shape).astype("float32") * 0.3
                   for w in model.get_weights()])
model.compile(optimizer=keras.optimizers.SGD(0.5),
              loss=keras.losses.BinaryCrossentropy(from_logits=True))
history = model.fit(dataset, epochs=3, verbose=0)
print("loss:", [round(v, 4) for v in history.history["loss"]])


class Classifier(tf.Module):
    def __init__(self, lookup, model):
        super().__init__()
        self.lookup, self.model = lookup, model
        self.names = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant([0, 1], tf.int64),
                                                ["cool", "warm"]), "unknown")
        self.seen = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def classify(self, words):
        logits = self.model(self.lookup(words))[:, 0]
        label = tf.cast(logits > 0.0, tf.int64)
        self.seen.insert(words, label + 10)
        return {"label": self.names.lookup(label), "seen": self.seen.size()}


classifier = Classifier(lookup, model)
queries = tf.constant(["red", "blue", "violet", "black"])
before = classifier.classify(queries)
print("before save:", [s.decode() for s in before["label"].numpy()], int(before["seen"]))

export_dir = os.path.join(tempfile.mkdtemp(), "classifier")
tf.saved_model.save(classifier, export_dir)
restored = tf.saved_model.load(export_dir)
after = restored.classify(queries)
print("after load:", [s.decode() for s in after["label"].numpy()], int(after["seen"]))
more = restored.classify(tf.constant(["cyan", "amber"]))
print("restored table grows:", int(more["seen"]))
fresh = tf.saved_model.load(export_dir)
again = fresh.classify(tf.constant(["green"]))
print("a fresh load starts from the saved table:", int(again["seen"]))
