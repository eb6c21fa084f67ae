"""`Session.partial_run_setup` / `Session.partial_run`: one run of a graph given in steps, as
TensorFlow 1 has it. Setup names every tensor that will be fetched and every tensor that will be
fed and returns a handle (a string); each `partial_run(handle, fetches, feed_dict)` feeds some of
those tensors and fetches some of those results. The values fed so far stay fed, and each value
fetched so far is fed back to later steps (so what a step computed is not computed again from
the start); when every fetch named at setup has been fetched, the handle is done.

Errors are TensorFlow's InvalidArgumentErrors: a fetch or feed that setup did not name, a feed
given twice, a handle that is unknown or done ("Must run 'setup' before performing partial
runs!"). A failed step records nothing.
"""
import itertools

from ..util import nest
from ..framework.errors import InvalidArgumentError
from ..framework.operation import Operation

__all__ = ["setup", "run_step"]

_COUNTER = itertools.count(1)


class _Pending:
    """What one handle allows and what its steps have fed and fetched so far."""

    def __init__(self, fetches, feeds):
        self.fetches, self.feeds = fetches, feeds
        self.fed, self.fetched = {}, {}
        self.done = set()


def _name(item):
    return item.name


def _table(session):
    table = getattr(session, "_partial_runs", None)
    if table is None:
        table = session._partial_runs = {}
    return table


def setup(session, fetches, feeds=None):
    """The handle of a new partial run of `fetches` (nested) fed from `feeds` (a list)."""
    if session._closed:
        raise RuntimeError("Attempted to use a closed Session.")
    resolved = [session._fetch(f) for f in nest.flatten(fetches)]
    fed = [session._fetch(f) for f in (feeds or [])]
    handle = (f"{','.join(map(_name, fed))}->{','.join(map(_name, resolved))}"
              f"//{next(_COUNTER)}/;{len(_table(session))}")
    _table(session)[handle] = _Pending(set(resolved), set(fed))
    return handle


def run_step(session, handle, fetches, feed_dict=None):
    """One step of the partial run `handle`: feed `feed_dict`, return `fetches` (nested)."""
    pending = _table(session).get(handle)
    if pending is None:
        raise InvalidArgumentError("Must run 'setup' before performing partial runs!")
    flat = [session._fetch(f) for f in nest.flatten(fetches)]
    for item in flat:
        if item not in pending.fetches:
            raise InvalidArgumentError(f"The fetch {item.name} was not specified in "
                                       "partial_run_setup.")
    new = {}
    for key, value in (feed_dict or {}).items():
        tensor = session._fetch(key)
        if tensor not in pending.feeds:
            raise InvalidArgumentError(f"The feed {tensor.name} was not specified in "
                                       "partial_run_setup.")
        if tensor in pending.fed:
            raise InvalidArgumentError(f"The feed {tensor.name} has already been fed.")
        new[tensor] = value
    feeds = {**pending.fetched, **pending.fed, **new}
    for item in flat:
        feeds.pop(item, None)
    values = session.run(flat, feed_dict=feeds)
    pending.fed.update(new)
    for item, value in zip(flat, values):
        pending.done.add(item)
        if not isinstance(item, Operation):
            pending.fetched[item] = value
    if pending.done >= pending.fetches:
        del _table(session)[handle]
    return nest.pack_sequence_as(fetches, values)
