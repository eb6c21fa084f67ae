"""Control flow as ops: `cond`, `case`, `switch_case` and `while_loop` (one op holding sub-graphs in a
graph, plain Python eagerly), the functional ops (`map_fn`, `scan`, folds), `vectorized_map`, and
the loops built on them (conjugate gradients)."""
