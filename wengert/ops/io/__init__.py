"""Ops that talk to the host: strings, printing, run-time checks, Python calls (`py_function`),
tensor arrays, dataset iterators as graph ops, collectives across processes, and
the string hashes (FarmHash Fingerprint64, SipHash-2-4)."""
