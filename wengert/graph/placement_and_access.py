"""The members of `tf.Graph` that guard, place and count its ops, which `Graph` inherits from
`PlacementAndAccess` (graph.py keeps the building itself):

- `prevent_feeding(tensor)` / `prevent_fetching(op)` mark a tensor as one a Session may not feed
  and an op whose outputs it may not fetch; `is_feedable(tensor)` / `is_fetchable(tensor_or_op)`
  report it. Session.run refuses such a feed with ValueError "Tensor x:0 may not be fed." and
  such a fetch with InaccessibleTensorError (a ValueError), as TensorFlow's does; fetching ops
  downstream of it still runs it.
- `colocate_with(op, ignore_existing=False)` gives the ops made inside `op`'s colocation group
  (what `Operation.colocation_groups()` reports; TensorFlow records it as the op's `_class`
  attribute, which wengert's GraphDefs leave out); `container(name)` and `device(name)` are
  the graph's forms of tf.compat.v1.container and tf.device. wengert runs every op on its one
  device and keeps resources in one container per process, so none of them moves an op.
- `num_operations()` counts the ops; `get()` is the graph itself (TensorFlow's Graph.get).
"""
import contextlib

from ..framework.device import device as _device
from ..framework.operation import Operation
from ..framework.tensor import Tensor

__all__ = ["PlacementAndAccess", "InaccessibleTensorError"]


class InaccessibleTensorError(ValueError):
    """A fetch of an op marked not fetchable (TensorFlow's InaccessibleTensorError)."""


class PlacementAndAccess:
    """Graph's feed/fetch guards, placement scopes and op count (see the module docstring)."""

    __slots__ = ()

    def _guards(self):
        guards = self.__dict__.get("_feed_fetch_guards")
        if guards is None:
            guards = self.__dict__.setdefault("_feed_fetch_guards", (set(), set()))
        return guards

    def prevent_feeding(self, tensor):
        """Mark `tensor` as one no Session may feed."""
        self._guards()[0].add(tensor)

    def prevent_fetching(self, op):
        """Mark `op` (and so its outputs) as one no Session may fetch."""
        self._guards()[1].add(op)

    def is_feedable(self, tensor):
        return tensor not in self._guards()[0]

    def is_fetchable(self, tensor_or_op):
        op = tensor_or_op.op if isinstance(tensor_or_op, Tensor) else tensor_or_op
        return op not in self._guards()[1]

    def check_fetchable(self, tensor_or_op):
        """InaccessibleTensorError for a fetch of an op marked by prevent_fetching."""
        if not self.is_fetchable(tensor_or_op):
            op = tensor_or_op.op if isinstance(tensor_or_op, Tensor) else tensor_or_op
            raise InaccessibleTensorError(
                f"Operation {op.name} has been marked as not fetchable. Typically this happens "
                "when it is defined in another function or code block. Use return values, "
                "explicit Python locals or TensorFlow collections to access it.")

    def check_feedable(self, tensor):
        """ValueError for a feed of a tensor marked by prevent_feeding."""
        if not self.is_feedable(tensor):
            raise ValueError(f"Tensor {tensor.name} may not be fed.")

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Place the ops made inside with `op`: they get its colocation group (their
        `_class` attribute [b"loc:@<op's name>"], what `colocation_groups()` reports); one
        device here, so nothing moves."""
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is "
                             "not True")
        if op is not None and not isinstance(op, (Operation, Tensor)) and \
                not hasattr(op, "read_value"):
            raise TypeError(f"Graph.colocate_with: op must be an Operation, a Tensor or a "
                            f"Variable, got {type(op).__name__}.")
        first = len(self.get_operations())
        yield
        if op is not None:
            target = op if isinstance(op, Operation) else op.op
            groups = self.__dict__.setdefault("_colocation", {})
            for made in self.get_operations()[first:]:
                groups.setdefault(made, target.colocation_groups())

    def colocation_of(self, op):
        """The colocation group colocate_with gave `op` (None when it gave none)."""
        return self.__dict__.get("_colocation", {}).get(op)

    @contextlib.contextmanager
    def container(self, container_name):
        """The resource container of stateful ops made inside: one per process here."""
        yield container_name

    @contextlib.contextmanager
    def device(self, device_name_or_function):
        """tf.device for the ops made inside (a device name; None leaves the placement)."""
        if device_name_or_function is None or callable(device_name_or_function):
            yield
            return
        with _device(device_name_or_function):
            yield

    def num_operations(self):
        """How many ops the graph holds."""
        return len(self.get_operations())

    def get(self):
        """The graph itself."""
        return self
