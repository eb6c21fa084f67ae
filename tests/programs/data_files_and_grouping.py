"""Input pipelines from files, as TensorFlow's guide builds them: make_csv_dataset with a label
column, CsvDataset, TextLineDataset, FixedLengthRecordDataset, then group_by_window,
bucket_by_sequence_length, choose_from_datasets, unique, take_while, scan, padded_batch of
pairs, get_single_element, an iterator resumed from a checkpoint, and get_next_as_optional."""
import os
import tempfile

import numpy as np
import tensorflow as tf

folder = tempfile.mkdtemp()
csv_path = os.path.join(folder, "data.csv")
with open(csv_path, "w") as f:
    f.write("age,height,name,label\n")
    for i in range(7):
        f.write(f"{20 + i},{1.5 + i / 10:.2f},p{i},{i % 2}\n")

ds = tf.data.experimental.make_csv_dataset(csv_path, batch_size=3, label_name="label",
                                           num_epochs=1, shuffle=False)
print("csv spec:", {k: (v.dtype.name, v.shape.as_list()) for k, v in ds.element_spec[0].items()})
for features, label in ds:
    print("batch:", features["age"].numpy().tolist(), np.round(features["height"].numpy(), 2)
          .tolist(), features["name"].numpy().tolist(), label.numpy().tolist())

rows = tf.data.experimental.CsvDataset(csv_path, [tf.int32, [0.0]], header=True,
                                       select_cols=[0, 1])
print("csv rows:", [(int(a), round(float(h), 2)) for a, h in rows.take(3)])
print("lines:", [line.numpy() for line in tf.data.TextLineDataset(csv_path).skip(6)])

blob = os.path.join(folder, "blob.bin")
with open(blob, "wb") as f:
    f.write(bytes(range(20)))
fixed = tf.data.FixedLengthRecordDataset(blob, 4, header_bytes=2, footer_bytes=2)
print("fixed:", [r.numpy().hex() for r in fixed])

windows = tf.data.Dataset.range(10).group_by_window(
    key_func=lambda x: x % 3, reduce_func=lambda key, w: w.batch(2), window_size=2)
print("group_by_window:", [w.numpy().tolist() for w in windows])

lengths = [1, 3, 2, 5, 4, 1]
seqs = tf.data.Dataset.from_generator(lambda: (np.arange(n) + 1 for n in lengths),
                                      output_signature=tf.TensorSpec([None], tf.int64))
buckets = seqs.bucket_by_sequence_length(lambda s: tf.shape(s)[0], [3], [2, 2])
print("buckets:", [b.numpy().tolist() for b in buckets])

choice = tf.data.Dataset.from_tensor_slices(tf.constant([1, 0, 0, 1], tf.int64))
chosen = tf.data.Dataset.choose_from_datasets(
    [tf.data.Dataset.range(3), tf.data.Dataset.range(100, 103)], choice)
print("chosen:", [int(v) for v in chosen])
print("unique:", [int(v) for v in tf.data.Dataset.from_tensor_slices([3, 1, 3, 2, 1]).unique()])
print("take_while:", [int(v) for v in tf.data.Dataset.range(9).take_while(lambda v: v * v < 20)])
print("scan:", [int(v) for v in tf.data.Dataset.range(5).scan(np.int64(0),
                                                             lambda s, v: (s + v, s + v))])

pairs = tf.data.Dataset.from_generator(
    lambda: iter([([1, 2], [0.5]), ([3], [1.5, 2.5])]),
    output_signature=(tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.float32)))
ids, weights = next(iter(pairs.padded_batch(2, padded_shapes=([3], [4]),
                                            padding_values=(-1, 9.0))))
print("padded pairs:", ids.numpy().tolist(), weights.numpy().tolist())
print("single:", int(tf.data.Dataset.range(7, 8).get_single_element()))

iterator = iter(tf.data.Dataset.range(10).shuffle(10, seed=5).batch(3))
next(iterator)
checkpoint = tf.train.Checkpoint(iterator=iterator)
saved = checkpoint.save(os.path.join(folder, "ckpt"))
expected = next(iterator).numpy().tolist()
resumed = iter(tf.data.Dataset.range(10).shuffle(10, seed=5).batch(3))
tf.train.Checkpoint(iterator=resumed).restore(saved)
print("resumed at the same batch:", next(resumed).numpy().tolist() == expected)

tail = iter(tf.data.Dataset.range(1))
first, second = tail.get_next_as_optional(), tail.get_next_as_optional()
print("optional:", bool(first.has_value()), int(first.get_value()), bool(second.has_value()))
