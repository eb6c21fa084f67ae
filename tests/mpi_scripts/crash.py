"""An exception on rank 1 while the others wait in a collective: the launcher must end every
rank, with a non-zero status, within seconds (python -m mpi4py aborts the job)."""
import time

import numpy as np

import wengert.distribute.horovod as hvd

hvd.init()
hvd.allreduce(np.ones(3), op=hvd.Sum)  # everyone is up
if hvd.rank() == 1:
    time.sleep(0.5)
    print(f"RAISING {time.time():.3f}", flush=True)
    raise RuntimeError("rank 1 fails on purpose")
hvd.allreduce(np.ones(3), op=hvd.Sum)  # waits for rank 1, which never comes
print("NOT REACHED", flush=True)
