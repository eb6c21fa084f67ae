"""Op-table rows for the collective ops (ops/io/collectives.py). In the test process the job is
one process, where every collective is the identity: the rows check the forward values, the
shape rules and that gradients flow through the ops (each rule is the collective applied to the
incoming gradient, the identity here too). tests/test_distribute_mpi.py checks them across
processes."""
from wengert.ops.io import collectives as co
from op_table import OpInfo, Sample, rand


def _grouped(x, y):
    a, b = co.grouped_all_reduce([x, y], ["x", "y"])
    return a * b


def _grouped_mean(x, y):
    a, b = co.grouped_all_reduce([x, y], ["x", "y"], average=True)
    return a + b


ROWS = [
    OpInfo("collective.all_reduce", lambda x: co.all_reduce(x), lambda x: x,
           [Sample((rand(3, 4),))]),
    OpInfo("collective.all_reduce.mean", lambda x: co.all_reduce(x, "sum", average=True),
           lambda x: x, [Sample((rand(5),))]),
    OpInfo("collective.grouped_all_reduce", _grouped, lambda x, y: x * y,
           [Sample((rand(2, 3), rand(2, 3)))]),
    OpInfo("collective.grouped_all_reduce.mean", _grouped_mean, lambda x, y: x + y,
           [Sample((rand(4), rand(4)))]),
    OpInfo("collective.all_gather", lambda x: co.all_gather(x), lambda x: x,
           [Sample((rand(3, 2),))]),
    OpInfo("collective.broadcast", lambda x: co.broadcast(x, 0), lambda x: x,
           [Sample((rand(2, 2),))]),
]
