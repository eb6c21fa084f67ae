"""Checkpoints under MultiWorkerMirroredStrategy: every rank saves and restores; rank 0 alone
writes and reads the files, and every rank ends with the same values.

    python checkpoints.py OUTDIR save_restore
    python checkpoints.py OUTDIR backup CRASH_AT_EPOCH|-1 BACKUP_DIR

save_restore: saves through CheckpointManager (twice) and Checkpoint.save, counting file writes
and reads on each rank, then restores after each rank changed its weights differently.
backup: Keras fit for 4 epochs with BackupAndRestore; with CRASH_AT_EPOCH >= 0 rank 1 dies at
the start of that epoch (the whole job ends); run again, fit resumes there."""
import json
import os
import sys

import numpy as np

import wengert as tf
import wengert.train.checkpoint as checkpoint_module

OUT, MODE = sys.argv[1], sys.argv[2]
strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id
tf.keras.utils.set_random_seed(rank)
data = np.random.default_rng(5)
X, Y = data.normal(size=(32, 4)), data.integers(0, 2, size=32)
tf.keras.backend.set_floatx("float64")
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.build((None, 4))
    model.compile(tf.keras.optimizers.SGD(0.05, momentum=0.9),
                  tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
seen = {"rank": rank}

if MODE == "save_restore":
    counts = {"writes": 0, "reads": 0}
    write, read = checkpoint_module._write_checkpoint, checkpoint_module.load_checkpoint

    def counting_write(*args):
        counts["writes"] += 1
        return write(*args)

    def counting_read(*args):
        counts["reads"] += 1
        return read(*args)
    checkpoint_module._write_checkpoint = counting_write
    checkpoint_module.load_checkpoint = counting_read
    model.fit(X, Y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    ckpt = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
    manager = tf.train.CheckpointManager(ckpt, os.path.join(OUT, "managed"), max_to_keep=2)
    seen["paths"] = [manager.save(), manager.save()]
    seen["plain_path"] = ckpt.save(os.path.join(OUT, "plain", "ckpt"))
    saved = [w.copy() for w in model.get_weights()]
    model.set_weights([w + rank + 1.0 for w in saved])
    ckpt.restore(manager.latest_checkpoint).assert_consumed()
    seen["restored_equal"] = all(np.array_equal(a, b) for a, b in zip(model.get_weights(), saved))
    seen["weights"] = [w.tolist() for w in model.get_weights()]
    seen.update(counts)
else:
    crash_at, backup_dir = int(sys.argv[3]), sys.argv[4]
    epochs_run = []

    def on_epoch_begin(epoch, logs=None):
        epochs_run.append(epoch)
        if epoch == crash_at and rank == 1:
            raise RuntimeError(f"rank 1 crashes at epoch {epoch} on purpose")
    model.fit(X, Y, batch_size=8, epochs=4, shuffle=False, verbose=0,
              callbacks=[tf.keras.callbacks.BackupAndRestore(backup_dir),
                         tf.keras.callbacks.LambdaCallback(on_epoch_begin=on_epoch_begin)])
    seen["epochs_run"] = epochs_run
    seen["weights"] = [w.tolist() for w in model.get_weights()]
    seen["backup_left"] = os.path.exists(backup_dir)

with open(os.path.join(OUT, f"{MODE}_rank{rank}.json"), "w") as f:
    json.dump(seen, f)
