"""tf.data pieces a training script meets around its input pipeline: an iterator passed into a
tf.function that takes one batch per call, the type specs of datasets and iterators, TensorFlow's
tf.data service guide run in one process (one worker: the dataset's order), and a
rejection_resample whose target leaves one class of two (deterministic)."""
import tensorflow as tf

features = tf.data.Dataset.range(12).map(lambda i: tf.cast(i, tf.float32) / 4.0).batch(4)
iterator = iter(features)
total = tf.Variable(0.0)


@tf.function
def train_step(it):
    batch = next(it)
    total.assign_add(tf.reduce_sum(batch))
    return tf.reduce_mean(batch)


print("steps:", [round(float(train_step(iterator)), 4) for _ in range(2)])
print("left after steps:", next(iterator).numpy().tolist(), "total:", float(total))

spec = tf.data.DatasetSpec.from_value(features)
print("dataset spec:", spec)
print("iterator spec:", tf.data.IteratorSpec.from_value(iter(features)))
print("spec compatible:", spec.is_compatible_with(tf.data.Dataset.range(3).map(
    lambda i: tf.cast(i, tf.float32)).batch(2)), spec.is_compatible_with(tf.data.Dataset.range(3)))
wider = spec.most_specific_common_supertype([tf.data.DatasetSpec(tf.TensorSpec([4], tf.float32))])
print("supertype:", wider)

service = tf.data.experimental.service
dispatcher = service.DispatchServer()
worker = service.WorkerServer(service.WorkerConfig(
    dispatcher_address=dispatcher.target.split("://")[1]))
dataset = tf.data.Dataset.range(8).map(lambda x: x * x)
for mode in ("parallel_epochs", "distributed_epoch"):
    distributed = dataset.apply(service.distribute(processing_mode=mode,
                                                   service=dispatcher.target))
    print(mode + ":", [int(v) for v in distributed])
dataset_id = service.register_dataset(dispatcher.target, dataset.batch(3))
read = service.from_dataset_id("parallel_epochs", dispatcher.target, dataset_id,
                               element_spec=dataset.batch(3).element_spec)
print("from_dataset_id:", [b.numpy().tolist() for b in read])

labels = tf.data.Dataset.range(20).map(lambda i: (tf.cast(i % 4 == 0, tf.int32), i))
kept = labels.rejection_resample(lambda label, i: label, target_dist=[0.0, 1.0],
                                 initial_dist=[0.75, 0.25], seed=1)
print("resampled:", [(int(c), int(i)) for c, (_, i) in kept])
same = labels.rejection_resample(lambda label, i: label, [0.75, 0.25], [0.75, 0.25])
print("unchanged:", int(same.cardinality()), [int(c) for c, _ in same.take(5)])
