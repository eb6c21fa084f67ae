"""tf.data.experimental.service in one process (data/service.py): TensorFlow's service guide
examples give TensorFlow 2.21's elements (recorded as literals: one worker gives the dataset's
order), its argument errors read as TensorFlow's, and distributed_save writes what
Dataset.load reads."""
import socket

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import NotFoundError, UnavailableError

svc = tf.data.experimental.service


@pytest.fixture()
def dispatcher():
    server = svc.DispatchServer()
    yield server
    server.stop()


def _worker(dispatcher):
    return svc.WorkerServer(svc.WorkerConfig(dispatcher_address=dispatcher.target.split("://")[1]))


def _values(ds):
    return [np.asarray(x).tolist() for x in ds.as_numpy_iterator()]


def test_guide_examples_with_one_worker(dispatcher):
    assert dispatcher.target.startswith("grpc://localhost:")
    _worker(dispatcher)
    ds = tf.data.Dataset.range(10)
    for mode in ("parallel_epochs", "distributed_epoch", svc.ShardingPolicy.OFF):
        out = ds.apply(svc.distribute(processing_mode=mode, service=dispatcher.target))
        assert _values(out) == list(range(10))
        assert out.element_spec == ds.element_spec
    batches = ds.map(lambda x: x * 2).batch(3).apply(
        svc.distribute(svc.ShardingPolicy.OFF, dispatcher.target))
    assert _values(batches) == [[0, 2, 4], [6, 8, 10], [12, 14, 16], [18]]
    dataset_id = svc.register_dataset(dispatcher.target, ds.map(lambda x: x + 1))
    assert dataset_id.dtype == tf.string and dataset_id.shape.rank == 0
    got = svc.from_dataset_id(processing_mode="parallel_epochs", service=dispatcher.target,
                              dataset_id=dataset_id, element_spec=ds.element_spec)
    assert got.element_spec == tf.TensorSpec([], tf.int64)
    assert _values(got) == list(range(1, 11))
    shared = ds.apply(svc.distribute("distributed_epoch", dispatcher.target, job_name="shared"))
    first, second = iter(shared), iter(shared)
    assert sorted([int(next(first)) for _ in range(3)] + [int(next(second)) for _ in range(3)]
                  ) == [0, 0, 1, 1, 2, 2]


def test_two_workers(dispatcher):
    _worker(dispatcher)
    _worker(dispatcher)
    ds = tf.data.Dataset.range(4)
    parallel = _values(ds.apply(svc.distribute("parallel_epochs", dispatcher.target)))
    assert sorted(parallel) == [0, 0, 1, 1, 2, 2, 3, 3]
    epoch = _values(ds.apply(svc.distribute("distributed_epoch", dispatcher.target)))
    assert sorted(epoch) == [0, 1, 2, 3]


def _free():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def test_static_sharding_needs_the_workers_list():
    ports = [_free() for _ in range(3)]
    listed = [f"localhost:{p}" for p in ports[1:]]
    dispatcher = svc.DispatchServer(svc.DispatcherConfig(port=ports[0], worker_addresses=listed))
    try:
        address = dispatcher.target.split("://")[1]
        for port in ports[1:]:
            svc.WorkerServer(svc.WorkerConfig(address, port=port))
        data = tf.data.Dataset.range(6).apply(svc.distribute(svc.ShardingPolicy.DATA,
                                                             dispatcher.target))
        assert sorted(_values(data)) == list(range(6))
    finally:
        dispatcher.stop()
    other = svc.DispatchServer()
    try:
        _worker(other)
        with pytest.raises(NotFoundError, match="is not in the workers list"):
            list(tf.data.Dataset.range(3).apply(svc.distribute(svc.ShardingPolicy.DATA,
                                                               other.target)))
    finally:
        other._stop()


def test_arguments_and_missing_servers(dispatcher, tmp_path):
    ds = tf.data.Dataset.range(3)
    cases = [(dict(processing_mode="bogus", service=dispatcher.target),
              "tf.data service processing mode should be a"),
             (dict(processing_mode="parallel_epochs", service=""), "`service` must not be empty"),
             (dict(processing_mode="parallel_epochs", service=dispatcher.target, job_name=""),
              "`job_name` must not be empty"),
             (dict(processing_mode="parallel_epochs", service=dispatcher.target,
                   compression="zip"), r"Invalid `compression` argument: zip. Must be one of "
                                       r"\['AUTO', None, 'SNAPPY'\].")]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            ds.apply(svc.distribute(**kwargs))
    assert svc.DispatcherConfig().port == 0 and svc.DispatcherConfig(port=5050).port == 5050
    assert svc.WorkerConfig("localhost:1").dispatcher_address == "localhost:1"
    assert svc.ShardingPolicy.DYNAMIC == 1 and list(svc.ShardingPolicy.__members__) == [
        "OFF", "DYNAMIC", "FILE", "DATA", "FILE_OR_DATA", "HINT"]
    with pytest.raises(UnavailableError, match="has no workers"):
        list(ds.apply(svc.distribute("parallel_epochs", dispatcher.target)))
    with pytest.raises(UnavailableError, match="no dispatcher at 'localhost:1'"):
        tf.data.experimental.distributed_save(ds, str(tmp_path / "a"), "localhost:1")
    _worker(dispatcher)
    path = str(tmp_path / "snap")
    assert tf.data.experimental.distributed_save(tf.data.Dataset.range(5), path,
                                                 dispatcher.target) is None
    loaded = tf.data.Dataset.load(path)
    assert sorted(_values(loaded)) == [0, 1, 2, 3, 4]
    assert loaded.element_spec == tf.TensorSpec([], tf.int64)
