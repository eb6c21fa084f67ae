"""tf.distribute and the Horovod-style API in one process (issue 21): the parts that need no
second process. tests/test_distribute_mpi.py runs the same APIs across processes."""
import math
import sys

import numpy as np
import pytest

import wengert as tf
import wengert.distribute.horovod as hvd
from wengert.distribute import codec, comm, run
from wengert.distribute.gradient_sync import _layout
from wengert.distribute.input import local_rows
from wengert.distribute.protocol import Header, _difference


# -- the safe encoding of broadcast_object ------------------------------------------------------
def test_codec_round_trips_plain_values_arrays_and_tensors():
    value = {"a": (1, 2.5, None, True), 3: [b"\x00\xff", "text", float("inf")],
             ("k", 1): {"nested": np.arange(6, dtype=np.int16).reshape(2, 3)},
             "scalar": np.float32(1.5), "tensor": tf.constant([1.0, 2.0])}
    back = codec.decode(codec.encode(value))
    assert back["a"] == (1, 2.5, None, True) and back[3] == [b"\x00\xff", "text", math.inf]
    nested = back[("k", 1)]["nested"]
    assert nested.dtype == np.int16 and nested.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert back["scalar"] == np.float32(1.5) and back["scalar"].dtype == np.float32
    assert back["tensor"].tolist() == [1.0, 2.0]
    assert math.isnan(codec.decode(codec.encode(float("nan"))))


def test_codec_refuses_what_could_run_code():
    with pytest.raises(TypeError, match="cannot send a set"):
        codec.encode({1, 2})
    with pytest.raises(TypeError, match="object"):
        codec.encode(np.array([object()], dtype=object))
    crafted = b'{"~":"array","dtype":"|O","shape":[1],"b64":"AAAAAAAAAAA="}'
    with pytest.raises(ValueError, match="not accepted"):
        codec.decode(crafted)
    with pytest.raises(ValueError, match="needs 8 bytes"):
        codec.decode(b'{"~":"array","dtype":"<f8","shape":[1],"b64":"AAAA"}')
    with pytest.raises(ValueError, match="unknown encoded kind"):
        codec.decode(b'{"~":"pickle","data":"gASV"}')


# -- the launcher ---------------------------------------------------------------------------------
def test_launcher_command_has_the_flags_open_mpi_needs(monkeypatch):
    monkeypatch.setattr(run.os, "geteuid", lambda: 0)
    command = run.build_command(4, ["train.py", "--epochs", "2"], mpiexec="/venv/bin/mpiexec",
                                open_mpi=True)
    assert command[:5] == ["/venv/bin/mpiexec", "-n", "4", "--allow-run-as-root",
                           "--oversubscribe"]
    assert command[5:] == [sys.executable, "-m", "mpi4py", "train.py", "--epochs", "2"]
    other = run.build_command(2, ["-m", "pkg.mod"], hosts=["--hostfile", "hosts"],
                              mpiexec="mpiexec", open_mpi=False)
    assert other == ["mpiexec", "-n", "2", "--hostfile", "hosts", sys.executable, "-m",
                     "mpi4py", "-m", "pkg.mod"]


def test_launcher_parses_its_options():
    ranks, hosts, extra, dry, program = run._parse(
        ["-n", "3", "-H", "a:2,b:1", "--dry-run", "--mpi", "--bind-to", "none", "x.py", "-v"])
    assert (ranks, hosts, extra, dry, program) == (3, ["-H", "a:2,b:1"],
                                                   ["--bind-to", "none"], True, ["x.py", "-v"])
    with pytest.raises(SystemExit, match="positive number"):
        run._parse(["-n", "zero", "x.py"])
    with pytest.raises(SystemExit, match="no script"):
        run._parse(["-n", "2"])


def test_launcher_shares_the_cores_between_local_ranks():
    # N ranks each running a BLAS pool of every core fight over them: cores // N threads each
    env = run.thread_environment(2, environ={}, cores=8)
    assert env == {name: "4" for name in run.THREAD_VARIABLES}
    assert run.thread_environment(4, environ={}, cores=2)["OMP_NUM_THREADS"] == "1"
    kept = run.thread_environment(2, environ={"OMP_NUM_THREADS": "3"}, cores=8)
    assert "OMP_NUM_THREADS" not in kept and kept["OPENBLAS_NUM_THREADS"] == "4"  # a user's wins
    assert run.thread_environment(2, hosts=["-H", "a:2,b:2"], environ={}, cores=8) == {}


def test_local_ranks_use_shared_memory_unless_told_otherwise():
    assert run.local_mpi_environment(environ={}) == {"OMPI_MCA_btl": "self,sm"}
    assert run.local_mpi_environment(environ={"OMPI_MCA_btl": "self,tcp"}) == {}
    assert run.local_mpi_environment(hosts=["-H", "a:2,b:2"], environ={}) == {}
    assert run.local_mpi_environment(environ={}, open_mpi=False) == {}


def test_launcher_names_the_extra_without_mpi4py(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    assert run.main(["-n", "2", "x.py"]) == 2
    assert 'pip install "wengert[mpi]"' in capsys.readouterr().err


# -- the communicator -----------------------------------------------------------------------------
def test_missing_mpi4py_is_an_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    with pytest.raises(comm.MissingMPIError, match=r"wengert\[mpi\]"):
        comm.import_mpi()
    monkeypatch.setattr(comm, "_WORLD", [])
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "2")
    assert comm.launched_size() == 2
    with pytest.raises(comm.MissingMPIError, match="wengert.distribute.run"):
        comm.world()


def test_local_communicator_is_one_process():
    local = comm.LocalCommunicator()
    a = np.arange(4.0)
    out = np.empty_like(a)
    assert local.allreduce(a, out) is out and out.tolist() == a.tolist()
    assert local.allgather(a[:2]).tolist() == [0.0, 1.0]
    local.iallreduce(a).wait()
    local.barrier()
    with pytest.raises(ValueError, match="root rank 1"):
        local.broadcast(a, 1)
    with pytest.raises(ValueError, match="unknown op"):
        local.allreduce(a, op="mean")
    with pytest.raises(ValueError, match="C-contiguous"):
        local.allreduce(np.ones((3, 3))[:, 0])


# -- the protocol ---------------------------------------------------------------------------------
def test_header_detects_ranks_that_disagree():
    def wrapped(value):  # what an int64 holds of value (modulo 2^64), as the ranks compute it
        value %= 1 << 64
        return value - (1 << 64) if value >= 1 << 63 else value

    def summed(*headers):
        rows = np.array([[1, op, op * op, key, key * key, n, wrapped(n * n), 0]
                         for op, key, n in headers], np.int64)
        with np.errstate(over="ignore"):
            return np.sum(rows, axis=0)
    same = Header(summed((1, 9, 100), (1, 9, 100), (1, 9, 100)))
    assert same.consistent and (same.active, same.op, same.key, same.size) == (3, 1, 9, 100)
    assert not Header(summed((1, 9, 100), (1, 9, 101))).consistent
    assert not Header(summed((1, 9, 100), (5, 9, 100))).consistent
    big = 3 << 40  # element counts whose squares overflow int64 still compare
    with np.errstate(over="ignore"):
        assert Header(summed((1, 1, big), (1, 1, big))).consistent


def test_the_mismatch_message_names_rank_and_variable():
    lists = {0: ["'a:0' float32 [2]", "'b:0' float32 [3]"],
             1: ["'a:0' float32 [2]", "'b:0' float32 [4]"],
             2: ["'a:0' float32 [2]"]}
    message = _difference(lists, [0, 1, 2], "the variables", "variable")
    assert "rank 1's variable #1 is 'b:0' float32 [4] where rank 0's is 'b:0' float32 [3]" \
        in message
    assert "rank 2 has no variable 'b:0' float32 [3]" in message


# -- gradient buckets -------------------------------------------------------------------------
def test_buckets_follow_reverse_variable_order_per_dtype():
    f32, f64 = np.dtype("float32"), np.dtype("float64")
    specs = [("w0", (1000,), f32, False), ("w1", (10,), f64, False),
             ("w2", (300,), f32, False), ("emb", (50, 4), f32, True),
             ("w3", (400,), f32, False), ("big", (5000,), f32, False)]
    buckets = _layout(specs, bucket_bytes=4000)
    layout = [(b.dtype.name, b.members, b.total) for b in buckets]
    # reverse order: big (alone: 20000 bytes), w3 + w2 (2800 bytes), then w0 (4000: alone)
    assert layout[0] == ("float32", [5], 5000)
    assert ("float32", [4, 2], 700) in layout and ("float32", [0], 1000) in layout
    assert ("float64", [1], 10) in layout
    assert all(3 not in b.members for b in buckets)  # the sparse gradient is gathered
    assert sorted(i for b in buckets for i in b.members) == [0, 1, 2, 4, 5]


def test_local_rows_split_like_array_split():
    for total in range(0, 11):
        for size in (1, 2, 3, 4):
            parts = [np.arange(total)[local_rows(total, r, size)] for r in range(size)]
            expected = np.array_split(np.arange(total), size)
            assert [p.tolist() for p in parts] == [e.tolist() for e in expected]


# -- the strategy API in one process ----------------------------------------------------------
def test_contexts_as_tensorflow_has_them():
    assert not tf.distribute.has_strategy()
    default = tf.distribute.get_strategy()
    assert default.num_replicas_in_sync == 1
    assert tf.distribute.get_replica_context() is not None
    assert not tf.distribute.in_cross_replica_context()
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        assert tf.distribute.has_strategy() and tf.distribute.get_strategy() is strategy
        assert tf.distribute.get_replica_context() is None
        assert tf.distribute.in_cross_replica_context()
        inside = strategy.run(lambda: (tf.distribute.get_replica_context(),
                                       tf.distribute.in_cross_replica_context()))
        assert inside[0].num_replicas_in_sync == 1 and inside[1] is False
        assert int(inside[0].replica_id_in_sync_group) == 0
        with pytest.raises(ValueError, match="Mixing different"):
            with tf.distribute.MirroredStrategy().scope():
                pass
    assert not tf.distribute.has_strategy()


def test_reduce_run_and_local_results():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # one process: one replica
    assert strategy.num_replicas_in_sync == 1
    value = tf.constant([[1.0, 2.0], [3.0, 5.0]])
    assert strategy.reduce("SUM", value, axis=None).numpy().tolist() == [[1, 2], [3, 5]]
    assert strategy.reduce(tf.distribute.ReduceOp.MEAN, value, axis=0).numpy().tolist() == \
        [2.0, 3.5]
    assert strategy.reduce("SUM", value, axis=1).numpy().tolist() == [3.0, 8.0]
    assert strategy.experimental_local_results(value) == (value,)
    assert strategy.gather(value, axis=1).shape == (2, 2)
    doubled = strategy.run(lambda x: tf.distribute.get_replica_context().all_reduce(
        "SUM", {"v": x * 2.0}), args=(value,))
    assert doubled["v"].numpy().tolist() == [[2, 4], [6, 10]]
    with pytest.raises(ValueError, match="ReduceOp"):
        strategy.reduce("MAX", value, axis=None)


def test_distributed_datasets():
    strategy = tf.distribute.MirroredStrategy()
    ds = tf.data.Dataset.range(10).batch(4)
    batches = [b.numpy().tolist() for b in strategy.experimental_distribute_dataset(ds)]
    assert batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    seen = []

    def make(context):
        seen.append(context)
        return tf.data.Dataset.range(6).batch(context.get_per_replica_batch_size(4))
    dist = strategy.distribute_datasets_from_function(make)
    assert [b.numpy().tolist() for b in dist] == [[0, 1, 2, 3], [4, 5]]
    assert seen[0].num_input_pipelines == 1 and seen[0].input_pipeline_id == 0
    iterator = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(2).batch(2)))
    assert iterator.get_next().numpy().tolist() == [0, 1]
    with pytest.raises(tf.errors.OutOfRangeError):
        iterator.get_next()


def test_compute_average_loss_as_tensorflow():
    losses = tf.constant([1.0, 2.0, 3.0, 4.0])
    assert float(tf.nn.compute_average_loss(losses, global_batch_size=8)) == 1.25
    assert float(tf.nn.compute_average_loss(losses)) == 2.5
    weighted = tf.nn.compute_average_loss(losses, sample_weight=[1.0, 0.0, 1.0, 0.0],
                                          global_batch_size=4)
    assert float(weighted) == 1.0
    assert float(tf.nn.compute_average_loss(losses, global_batch_size=0)) == 0.0
    with pytest.raises(ValueError, match="at least rank 1"):
        tf.nn.compute_average_loss(tf.constant(1.0))
    with pytest.raises(TypeError, match="integer"):
        tf.nn.compute_average_loss(losses, global_batch_size=2.0)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        with pytest.raises(RuntimeError, match="cross replica context"):
            tf.nn.compute_average_loss(losses)
        assert float(strategy.run(lambda: tf.nn.compute_average_loss(losses))) == 2.5
        assert float(strategy.run(lambda: tf.nn.scale_regularization_loss([1.0, 2.0]))) == 3.0


def test_keras_fit_under_a_one_replica_strategy_is_plain_fit():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(24, 3)), rng.integers(0, 2, size=24)

    def trained(strategy):
        tf.keras.utils.set_random_seed(1)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                         tf.keras.layers.Dense(2)])
            model.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(
                from_logits=True), metrics=["accuracy"])
        history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
        return model, history.history
    plain, plain_history = trained(tf.distribute.get_strategy())
    mirrored, mirrored_history = trained(tf.distribute.MirroredStrategy())
    assert isinstance(mirrored.distribute_strategy, tf.distribute.MirroredStrategy)
    assert plain_history == mirrored_history
    for a, b in zip(plain.get_weights(), mirrored.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_backup_and_restore_resumes_fit(tmp_path):
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(16, 3)), rng.normal(size=(16, 1))

    def model_and_fit(backup, crash_at=None):
        tf.keras.backend.clear_session()  # the same layer names as the backed-up model's
        tf.keras.utils.set_random_seed(2)
        model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
        model.build((None, 3))
        model.compile(tf.keras.optimizers.SGD(0.1, momentum=0.9), "mse")
        epochs = []

        def begin(epoch, logs=None):
            epochs.append(epoch)
            if epoch == crash_at:
                raise KeyboardInterrupt("stop")
        callbacks = [tf.keras.callbacks.BackupAndRestore(backup),
                     tf.keras.callbacks.LambdaCallback(on_epoch_begin=begin)]
        try:
            model.fit(x, y, batch_size=4, epochs=4, shuffle=False, verbose=0,
                      callbacks=callbacks)
        except KeyboardInterrupt:
            pass
        return model, epochs
    _, first = model_and_fit(tmp_path / "b", crash_at=2)
    assert first == [0, 1, 2] and (tmp_path / "b" / "checkpoint").exists()
    resumed, second = model_and_fit(tmp_path / "b")
    assert second == [2, 3] and not (tmp_path / "b").exists()
    whole, _ = model_and_fit(tmp_path / "c")
    for a, b in zip(resumed.get_weights(), whole.get_weights()):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="save_freq"):
        tf.keras.callbacks.BackupAndRestore(tmp_path, save_freq="batch")


# -- the Horovod-style API in one process -----------------------------------------------------
def test_horovod_in_one_process():
    hvd.init()
    assert hvd.is_initialized() and (hvd.rank(), hvd.size()) == (0, 1)
    assert (hvd.local_rank(), hvd.local_size(), hvd.cross_rank(), hvd.cross_size()) == \
        (0, 1, 0, 1)
    x = tf.constant([1.0, 2.0])
    assert hvd.allreduce(x).numpy().tolist() == [1.0, 2.0]
    assert hvd.allreduce(x, op=hvd.Sum, postscale_factor=2.0).numpy().tolist() == [2.0, 4.0]
    squeezed = hvd.allreduce(x, compression=hvd.Compression.fp16)
    assert squeezed.dtype == tf.float32 and squeezed.numpy().tolist() == [1.0, 2.0]
    assert hvd.allgather(x).numpy().tolist() == [1.0, 2.0]
    assert hvd.broadcast_object([1, (2, "x")]) == [1, (2, "x")]
    assert hvd.allgather_object("a") == ["a"]
    assert hvd.join() == 0
    with pytest.raises(ValueError, match="root_rank 3"):
        hvd.broadcast(x, root_rank=3)
    with pytest.raises(NotImplementedError, match="Adasum"):
        hvd.allreduce(x, op=hvd.Adasum)


def test_distributed_optimizer_keeps_state_and_accumulates():
    hvd.init()
    v = tf.Variable([1.0, 1.0])
    base = tf.optimizers.SGD(0.5)
    opt = hvd.DistributedOptimizer(base, backward_passes_per_step=2,
                                   average_aggregated_gradients=True)
    assert isinstance(opt, tf.optimizers.SGD) and opt.iterations is base.iterations
    opt.apply_gradients([(tf.constant([1.0, 2.0]), v)])
    assert v.numpy().tolist() == [1.0, 1.0]  # first of two passes: only accumulated
    opt.apply_gradients([(tf.constant([3.0, 0.0]), v)])
    assert v.numpy().tolist() == [0.0, 0.5]  # the mean of the two, times 0.5
    tape_var = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        loss = tape_var * tape_var
    assert float(hvd.DistributedGradientTape(tape).gradient(loss, tape_var)) == 4.0
