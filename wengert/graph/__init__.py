"""Graphs: ops built now and run later. `Graph` (name scopes, control dependencies, collections),
symbolic tensors, graph variables with per-session values, grouping (`group`, `tuple`, `no_op`) and
`as_graph_def`. Running a graph is runtime/'s work; tracing Python into one is tracing/'s."""
