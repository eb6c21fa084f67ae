"""`tf.data.experimental.service` in one process: DispatchServer, WorkerServer, their configs,
`distribute`, `register_dataset` and `from_dataset_id`.

TensorFlow's tf.data service runs datasets on worker servers that a dispatcher coordinates over
gRPC. Here the servers are objects of this process (as TensorFlow's own tests start them, with
`start=True`): a dispatcher is registered under its address, "localhost:<port>", `target` is
"grpc://localhost:<port>", and workers join the dispatcher named by their config's
`dispatcher_address`. A distributed dataset reads its elements through the dispatcher's workers:

- "parallel_epochs" (ShardingPolicy.OFF): every worker produces the whole dataset; the client
  takes one element from each worker in turn, so one worker gives the dataset's own order;
- "distributed_epoch" (DYNAMIC): the workers share one pass, each element produced once;
- FILE, DATA, FILE_OR_DATA, HINT (static sharding): worker k of n produces shard(n, k); the
  dispatcher must list its workers (DispatcherConfig.worker_addresses), as TensorFlow requires,
  else NotFoundError as TensorFlow raises it.

Elements travel by reference (no serialization, so `compression` only is checked). Each
iterator over a distributed dataset is its own iteration of the job, as TensorFlow gives a
second iterator in the same process. `register_dataset` keeps the dataset at the dispatcher
under a string id ("1000", "1001", ...); `from_dataset_id` reads it back.
"""
import collections
import enum
import itertools
import socket
import threading

import numpy as np

from ..framework import dtypes
from ..framework.errors import NotFoundError, UnavailableError
from ..framework.tensor import constant
from .dataset import UNKNOWN, Dataset, Stage

__all__ = ["DispatcherConfig", "WorkerConfig", "DispatchServer", "WorkerServer",
           "ShardingPolicy", "CrossTrainerCache", "distribute", "register_dataset",
           "from_dataset_id", "distributed_save"]

_DISPATCHERS = {}
_LOCK = threading.Lock()
_COMPRESSIONS = ["AUTO", None, "SNAPPY"]


class ShardingPolicy(enum.IntEnum):
    """How the workers of a tf.data service job divide a dataset."""
    OFF = 0
    DYNAMIC = 1
    FILE = 2
    DATA = 3
    FILE_OR_DATA = 4
    HINT = 5


DispatcherConfig = collections.namedtuple(
    "DispatcherConfig", ["port", "protocol", "work_dir", "fault_tolerant_mode",
                         "worker_addresses", "job_gc_check_interval_ms", "job_gc_timeout_ms",
                         "worker_timeout_ms", "worker_max_concurrent_snapshots"],
    defaults=(0, None, None, False, None, None, None, None, 0))
WorkerConfig = collections.namedtuple(
    "WorkerConfig", ["dispatcher_address", "worker_address", "port", "protocol",
                     "heartbeat_interval_ms", "dispatcher_timeout_ms",
                     "data_transfer_protocol", "data_transfer_address",
                     "cross_trainer_cache_size_bytes", "snapshot_max_chunk_size_bytes",
                     "shutdown_quiet_period_ms"],
    defaults=(None, 0, None, None, None, None, None, None, None, None))


class CrossTrainerCache:
    """Options to share a job's elements among trainers (accepted: one process has one)."""

    def __init__(self, trainer_id):
        if not trainer_id:
            raise ValueError("tf.data service cross-trainer cache requires a non-empty trainer "
                             "ID.")
        self.trainer_id = trainer_id


def _free_port(port):
    if port:
        return int(port)
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


class DispatchServer:
    """A tf.data service dispatcher in this process: `DispatchServer(config=None, start=True)`."""

    def __init__(self, config=None, start=True):
        self._config = config or DispatcherConfig()
        self._port = _free_port(self._config.port)
        self._protocol = self._config.protocol or "grpc"
        self._address = f"localhost:{self._port}"
        self.workers, self.datasets, self._started = [], {}, False
        self._ids = itertools.count(1000)
        if start:
            self.start()

    def start(self):
        """Start serving: clients and workers may now name this dispatcher's address."""
        with _LOCK:
            _DISPATCHERS[self._address] = self
        self._started = True

    def join(self):
        """Block while the server runs (returns at once once it is stopped)."""

    def stop(self):
        """Stop serving: the address no longer names this dispatcher."""
        with _LOCK:
            _DISPATCHERS.pop(self._address, None)
        self._started = False

    @property
    def target(self):
        return f"{self._protocol}://{self._address}"

    def register(self, dataset):
        key = next(self._ids)
        self.datasets[str(key)] = dataset
        return str(key)


class WorkerServer:
    """A tf.data service worker in this process: `WorkerServer(config, start=True)`."""

    def __init__(self, config, start=True):
        if config.dispatcher_address is None:
            raise ValueError("Must specify a `dispatcher_address` in the `WorkerConfig` passed "
                             "to `WorkerServer`.")
        self._config = config
        self._port = _free_port(config.port)
        self._address = (config.worker_address or "localhost:%port%").replace(
            "%port%", str(self._port))
        self._dispatcher = None
        if start:
            self.start()

    def start(self):
        """Join the dispatcher named by the config's dispatcher_address."""
        address = self._config.dispatcher_address.split("://")[-1]
        dispatcher = _DISPATCHERS.get(address)
        if dispatcher is None:
            raise UnavailableError(None, None, f"WorkerServer: no tf.data service dispatcher "
                                   f"at '{address}' in this process; start a DispatchServer "
                                   f"first and pass its target.")
        if self not in dispatcher.workers:
            dispatcher.workers.append(self)
        self._dispatcher = dispatcher

    def join(self):
        """Block while the server runs (returns at once once it is stopped)."""

    def stop(self):
        """Leave the dispatcher."""
        if self._dispatcher is not None and self in self._dispatcher.workers:
            self._dispatcher.workers.remove(self)
        self._dispatcher = None


def _policy(processing_mode):
    if isinstance(processing_mode, ShardingPolicy):
        return processing_mode
    if processing_mode == "parallel_epochs":
        return ShardingPolicy.OFF
    if processing_mode == "distributed_epoch":
        return ShardingPolicy.DYNAMIC
    raise ValueError("tf.data service processing mode should be a "
                     "`tf.data.experimental.service.ShardingPolicy`, `\"parallel_epochs\"`, "
                     f"or `\"distributed_epoch\"`. Got {processing_mode!r}.")


def _address(service):
    if not isinstance(service, str):
        raise ValueError(f"`service` must be a string, but `service` was of type "
                         f"{type(service)}. service={service}")
    if not service:
        raise ValueError("`service` must not be empty")
    parts = service.split("://")
    if len(parts) > 2:
        raise ValueError(f"Malformed `service` string has multiple '://': {service}.")
    return parts[-1]


def _check(job_name, compression):
    if job_name is not None and not isinstance(job_name, str):
        raise ValueError(f"`job_name` must be a string, but `job_name` was of type "
                         f"{type(job_name)}. job_name={job_name}")
    if job_name == "":
        raise ValueError("`job_name` must not be empty")
    if compression not in _COMPRESSIONS:
        raise ValueError(f"Invalid `compression` argument: {compression}. Must be one of "
                         f"{_COMPRESSIONS}.")


def _dispatcher(address):
    dispatcher = _DISPATCHERS.get(address)
    if dispatcher is None:
        raise UnavailableError(None, None, f"tf.data service: no dispatcher at '{address}' in "
                               f"this process (wengert runs the service in-process: start a "
                               f"DispatchServer and pass its target).")
    return dispatcher


class _ServiceStage(Stage):
    """One iteration of a job: the workers' streams, taken one element from each in turn."""

    def __init__(self, dataset):
        dispatcher = _dispatcher(dataset._address)
        workers = list(dispatcher.workers)
        if not workers:
            raise UnavailableError(None, None, f"tf.data service: the dispatcher at "
                                   f"'{dataset._address}' has no workers; start a "
                                   f"WorkerServer with its address.")
        policy, source = dataset._policy, dataset._source
        if policy == ShardingPolicy.DYNAMIC:
            self._streams = [source._stage()]
        elif policy == ShardingPolicy.OFF:
            self._streams = [source._stage() for _ in workers]
        else:
            self._streams = self._static(dispatcher, workers, source)
        self._turn = 0

    @staticmethod
    def _static(dispatcher, workers, source):
        listed = list(dispatcher._config.worker_addresses or [])
        n = len(listed)
        streams = []
        for worker in workers:
            if worker._address not in listed:
                raise NotFoundError(f"Failed to get or create iteration for job: Failed to shard "
                                    f"dataset in tf.data service: Worker {worker._address} is "
                                    f"not in the workers list. Got workers list "
                                    f"{','.join(listed)}.")
            streams.append(source.shard(n, listed.index(worker._address))._stage())
        return streams

    def __next__(self):
        while self._streams:
            i = self._turn % len(self._streams)
            item = next(self._streams[i], None)
            if item is not None:
                self._turn = i + 1
                return item
            del self._streams[i]
        raise StopIteration


class _ServiceDataset(Dataset):
    def __init__(self, source, policy, address):
        self._source, self._policy, self._address = source, policy, address
        super().__init__(source._structure, source._specs, UNKNOWN, (source,))

    def _stage(self):
        return _ServiceStage(self)


def distribute(processing_mode, service, job_name=None, consumer_index=None,
               num_consumers=None, max_outstanding_requests=None, data_transfer_protocol=None,
               compression="AUTO", cross_trainer_cache=None, target_workers="AUTO"):
    """A transformation (for `dataset.apply`) reading the dataset through the tf.data service
    at `service`, its workers dividing it by `processing_mode`."""
    policy, address = _policy(processing_mode), _address(service)
    _check(job_name, compression)
    if (consumer_index is None) != (num_consumers is None):
        raise ValueError("Must either set both `consumer_index` and `num_consumers`, or "
                         "neither. ")
    if str(target_workers).upper() not in ("AUTO", "ANY", "LOCAL"):
        raise ValueError(f"Unrecognized `target_workers`: {target_workers}; expected AUTO, "
                         f"ANY or LOCAL.")
    _ = (max_outstanding_requests, data_transfer_protocol, cross_trainer_cache)
    return lambda dataset: _ServiceDataset(dataset, policy, address)


def register_dataset(service, dataset, compression="AUTO", dataset_id=None):
    """Keep `dataset` at the dispatcher; its id, a scalar tf.string."""
    _check(None, compression)
    dispatcher = _dispatcher(_address(service))
    if dataset_id is not None:
        key = str(np.asarray(getattr(dataset_id, "_value", dataset_id)).item())
        key = key.decode() if isinstance(key, bytes) else key
        dispatcher.datasets.setdefault(key, dataset)
    else:
        key = dispatcher.register(dataset)
    return constant(key, dtypes.string)


def from_dataset_id(processing_mode, service, dataset_id, element_spec=None, job_name=None,
                    consumer_index=None, num_consumers=None, max_outstanding_requests=None,
                    data_transfer_protocol=None, cross_trainer_cache=None,
                    target_workers="AUTO"):
    """The dataset registered under `dataset_id`, read through the service's workers."""
    address = _address(service)
    key = np.asarray(getattr(dataset_id, "_value", dataset_id)).item()
    key = key.decode() if isinstance(key, bytes) else str(key)
    dataset = _dispatcher(address).datasets.get(key)
    if dataset is None:
        raise NotFoundError(f"from_dataset_id: dataset id {key} not found at the dispatcher "
                            f"'{address}'; register_dataset gives the ids.")
    if element_spec is not None and element_spec != dataset.element_spec:
        raise ValueError(f"from_dataset_id: element_spec {element_spec} differs from the "
                         f"registered dataset's {dataset.element_spec}.")
    transform = distribute(processing_mode, service, job_name, consumer_index, num_consumers,
                           max_outstanding_requests, data_transfer_protocol,
                           cross_trainer_cache=cross_trainer_cache,
                           target_workers=target_workers)
    return transform(dataset)


def distributed_save(dataset, path, data_service_address, compression="AUTO"):
    """Save `dataset` at `path` through the tf.data service at `data_service_address`
    (tf.data.experimental.distributed_save): written here at once, in Dataset.save's format,
    so that `tf.data.Dataset.load(path)` reads it back."""
    if not isinstance(dataset, Dataset):
        raise TypeError(f"distributed_save: `dataset` must be a tf.data.Dataset, got "
                        f"{type(dataset).__name__}.")
    dispatcher = _dispatcher(_address(data_service_address))
    if not dispatcher.workers:
        raise UnavailableError(None, None, f"distributed_save: the dispatcher at "
                               f"'{dispatcher._address}' has no workers; start a "
                               f"WorkerServer with its address.")
    dataset.save(path, compression=None if compression == "AUTO" else compression)


DispatchServer._stop = DispatchServer.stop  # TensorFlow's tests call _stop()
WorkerServer._stop = WorkerServer.stop
