"""The object graph of a checkpoint, as TensorFlow writes and matches it.

Saving walks the objects breadth first from the root (a `train.Checkpoint`): every object
reached is a node, numbered in the order first reached, and lists its children by the names
its `_checkpoint_children()` gives them (a name with "/" in it, such as an optimizer's
"slots/0/m", passes through one node per part). A variable is a leaf whose value is saved
under the key its first path spells, each name escaped ("." as "..", "/" as ".S") and joined
by "/", then "/.ATTRIBUTES/VARIABLE_VALUE": `model/dense/kernel/.ATTRIBUTES/VARIABLE_VALUE`.
The graph itself, a TrackableObjectGraph, is saved as a string scalar under
`_CHECKPOINTABLE_OBJECT_GRAPH`, after the values, which follow the nodes' order.

Restoring walks the saved graph and the live objects together from the two roots, following
each saved child into the live child of the same name; a saved variable reached at a live
variable is restored into it, whichever path leads there. A saved variable with no live
counterpart yet (a slot, an unbuilt layer) goes to the nearest live object on its path that
accepts deferred values (`_defer_restore`), named by its path from that object.
"""
import collections

import numpy as np

from ..framework.protos.trackable_object_graph import TrackableObjectGraph
from ..framework.variables import Variable
from ..graph.variables import GraphVariable

__all__ = ["OBJECT_GRAPH_KEY", "serialize", "match", "escape"]

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
ATTRIBUTE = "VARIABLE_VALUE"
ATTRIBUTES_DIR = ".ATTRIBUTES"


def escape(name):
    return name.replace(".", "..").replace("/", ".S")


class _Group:
    """The node between an object and its children named "head/rest"."""

    def __init__(self):
        self.children = collections.OrderedDict()


def children_of(obj, method="_checkpoint_children"):
    """OrderedDict {local name: child} of a trackable (or a group), names split at "/";
    `method` = "_checkpoint_legacy_children": the names an earlier wengert wrote, where an
    object keeps them (restoring only)."""
    if isinstance(obj, _Group):
        return obj.children if method == "_checkpoint_children" else {}
    out = collections.OrderedDict()
    named = getattr(obj, method, None)
    for name, child in (named() if callable(named) else {}).items():
        parts, target = str(name).split("/"), out
        for part in parts[:-1]:
            group = target.get(part)
            if not isinstance(group, _Group):
                group = target[part] = _Group()
            target = group.children
        target[parts[-1]] = child
    return out


def _check(path, obj):
    if isinstance(obj, GraphVariable):
        raise TypeError(f"Checkpoint: '{path}' is a graph variable, whose value lives in a "
                        "Session; train.Checkpoint saves and restores eager variables.")
    if not isinstance(obj, (Variable, _Group)) and not _is_saveable(obj) and \
            not callable(getattr(obj, "_checkpoint_children", None)):
        raise TypeError(f"Checkpoint: '{path}' is a {type(obj).__name__}; only Variables and "
                        "trackable objects (models, layers, optimizers) can be saved.")


def _is_saveable(obj):
    """Whether `obj` saves named arrays of its own (a lookup table's keys and values):
    `_checkpoint_tensors()` gives {attribute: ndarray}, `_restore_tensors` takes them back."""
    return callable(getattr(obj, "_checkpoint_tensors", None))


def _leaf(obj):
    return isinstance(obj, Variable) or _is_saveable(obj)


def breadth_first(root):
    """[(object, path of names, OrderedDict of children)] in TensorFlow's node order: breadth
    first, each object once, at the first path that reaches it."""
    order, seen = [], {id(root): 0}
    queue = collections.deque([(root, ())])
    while queue:
        obj, path = queue.popleft()
        children = collections.OrderedDict() if _leaf(obj) else children_of(obj)
        order.append((obj, path, children))
        for name, child in children.items():
            if id(child) not in seen:
                _check("/".join(path + (name,)), child)
                seen[id(child)] = len(seen)
                queue.append((child, path + (name,)))
    return order, seen


def _key(path, attribute=ATTRIBUTE):
    return "/".join(escape(p) for p in path) + f"/{ATTRIBUTES_DIR}/{attribute}"


def _short_name(variable):
    name = getattr(variable, "name", "") or ""
    return name[:-2] if name.endswith(":0") else name


def serialize(root):
    """{checkpoint key: ndarray} for the objects under `root`, in TensorFlow's order, the
    object graph last."""
    order, ids = breadth_first(root)
    graph, arrays = TrackableObjectGraph(), collections.OrderedDict()
    for obj, path, children in order:
        node = graph.nodes.add()
        if isinstance(obj, Variable):
            key = _key(path)
            node.attributes.add(name=ATTRIBUTE, full_name=_short_name(obj), checkpoint_key=key)
            arrays[key] = _value_of(obj)
        elif _is_saveable(obj):
            for name, value in obj._checkpoint_tensors().items():
                key = _key(path, name)
                node.attributes.add(name=name, full_name=getattr(obj, "name", ""),
                                    checkpoint_key=key)
                arrays[key] = np.asarray(value)
        for name, child in children.items():
            node.children.add(node_id=ids[id(child)], local_name=name)
    _mark_values(graph)
    arrays[OBJECT_GRAPH_KEY] = np.array(graph.SerializeToString(), dtype=object)
    return arrays


def _value_of(variable):
    """The variable's array as it is now, without a copy (the bytes are written at once)."""
    lend = getattr(variable, "_lend", None)
    return np.asarray(lend() if callable(lend) else variable.numpy())


def _mark_values(graph):
    """Set has_checkpoint_values on every node from which a saved value can be reached."""
    nodes = graph.nodes
    has = [bool(node.attributes) for node in nodes]
    changed = True
    while changed:  # a fixed point: shared objects and cycles
        changed = False
        for i in reversed(range(len(nodes))):
            if not has[i] and any(has[c.node_id] for c in nodes[i].children
                                  if 0 <= c.node_id < len(nodes)):
                has[i] = changed = True
    for node, value in zip(nodes, has):
        if value:
            node.has_checkpoint_values.value = True


class Match:
    """What restoring a saved graph into live objects does: `restored` {key: Variable},
    `saveables` [(object, {attribute: key})], `deferred` [(owner, {relative path: key})],
    `unused` [keys], `missing` [live paths]."""

    def __init__(self):
        self.restored = collections.OrderedDict()
        self.saveables = []
        self.deferred, self.unused, self.missing = [], [], []


def _variable_key(node):
    for attribute in node.attributes:
        if attribute.name == ATTRIBUTE:
            return attribute.checkpoint_key
    return None


def _walk_together(graph, root):
    """{saved node id: live object} for the saved nodes reached alongside live objects."""
    nodes, live = graph.nodes, {0: root}
    queue = collections.deque([(0, root)])
    while queue:
        node_id, obj = queue.popleft()
        if _leaf(obj):
            continue
        children, legacy = children_of(obj), None
        for ref in nodes[node_id].children:
            child = children.get(ref.local_name)
            if child is None:  # a name an earlier wengert wrote (Keras models' "layer-<i>")
                legacy = children_of(obj, "_checkpoint_legacy_children") if legacy is None \
                    else legacy
                child = legacy.get(ref.local_name)
            if child is None or ref.node_id in live or not 0 <= ref.node_id < len(nodes):
                continue
            live[ref.node_id] = child
            queue.append((ref.node_id, child))
    return live


def match(graph, root):
    """Match saved TrackableObjectGraph `graph` against the live objects under `root`."""
    nodes, result = graph.nodes, Match()
    live = _walk_together(graph, root)
    owners = collections.OrderedDict()
    queue, visited = collections.deque([(0, None, ())]), {0}
    while queue:
        node_id, owner, relative = queue.popleft()
        obj = live.get(node_id)
        if obj is not None and callable(getattr(obj, "_defer_restore", None)):
            owner, relative = obj, ()
        key = _variable_key(nodes[node_id])
        if obj is not None and _is_saveable(obj):
            result.saveables.append((obj, {a.name: a.checkpoint_key
                                           for a in nodes[node_id].attributes}))
        elif key is not None:
            if isinstance(obj, Variable):
                result.restored[key] = obj
            elif owner is not None and obj is None:
                owners.setdefault(id(owner), (owner, {}))[1]["/".join(relative)] = key
            else:
                result.unused.append(key)
        for ref in nodes[node_id].children:
            if ref.node_id not in visited and 0 <= ref.node_id < len(nodes):
                visited.add(ref.node_id)
                queue.append((ref.node_id, owner, relative + (ref.local_name,)))
    result.deferred = list(owners.values())
    reached = {id(v) for v in result.restored.values()}
    for obj, path, _ in breadth_first(root)[0]:
        if isinstance(obj, Variable) and id(obj) not in reached:
            result.missing.append("/".join(path))
    return result
