"""`tf.train.ClusterSpec`: the jobs of a distributed TensorFlow cluster and the network address
of each of their tasks, and its protocol-buffer form `ClusterDef`.

A ClusterSpec maps job names to tasks: a job given as a list numbers its tasks 0, 1, ...; a
job given as a dict {task index: address} may leave gaps. It is pure data (wengert runs no
distributed runtime): `jobs`, `num_tasks`, `task_indices`, `task_address`, `job_tasks` (a
list with None in the gaps), `as_dict` (a list for a job whose indices run 0..n-1, otherwise a
dict) and `as_cluster_def` (tensorflow.ClusterDef: repeated JobDef job = 1; JobDef: string
name = 1, map<int32, string> tasks = 2; jobs in name order), as TensorFlow's.
"""
from ..framework.protos.message import Field, Message

__all__ = ["ClusterDef", "ClusterSpec", "JobDef"]


class JobDef(Message):
    """One job of a cluster: its name and {task index: address}."""
    FULL_NAME = "tensorflow.JobDef"
    FIELDS = (Field(1, "name", "string"),
              Field(2, "tasks", "string", map_key="int32"))


class ClusterDef(Message):
    """The jobs of a cluster."""
    FULL_NAME = "tensorflow.ClusterDef"
    FIELDS = (Field(1, "job", "message", repeated=True, message=JobDef),)


def _tasks(job, tasks):
    if isinstance(tasks, (list, tuple)):
        return dict(enumerate(tasks))
    if isinstance(tasks, dict):
        if any(isinstance(k, bool) or not isinstance(k, int) for k in tasks):
            raise TypeError(f"ClusterSpec: the task indices of job {job!r} must be integers, got "
                            f"{list(tasks)}.")
        return dict(tasks)
    raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary from integers "
                    f"to strings.")


class ClusterSpec:
    """The tasks of each job of a cluster: `ClusterSpec({"ps": ["ps0:2222"], "worker":
    {0: "w0:2222", 3: "w3:2222"}})`, or another ClusterSpec, or a ClusterDef."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            self._jobs = {job: dict(tasks) for job, tasks in cluster._jobs.items()}
        elif isinstance(cluster, ClusterDef):
            self._jobs = {job.name: dict(job.tasks) for job in cluster.job}
        elif isinstance(cluster, dict):
            self._jobs = {job: _tasks(job, tasks) for job, tasks in cluster.items()}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterDef` protocol buffer")

    def __bool__(self):
        return bool(self._jobs)

    def __eq__(self, other):
        return isinstance(other, ClusterSpec) and self._jobs == other._jobs

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        spec = self.as_dict()
        items = ", ".join(f"{k!r}: {spec[k]!r}" for k in sorted(spec))
        return f"ClusterSpec({{{items}}})"

    @property
    def jobs(self):
        """The job names, in the order they were given."""
        return list(self._jobs)

    def _job(self, job_name):
        try:
            return self._jobs[job_name]
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def num_tasks(self, job_name):
        return len(self._job(job_name))

    def task_indices(self, job_name):
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        tasks = self._job(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name):
        """The addresses of the job's tasks by index, None where an index has no task."""
        tasks = self._job(job_name)
        out = [None] * (max(tasks) + 1 if tasks else 0)
        for index, address in tasks.items():
            out[index] = address
        return out

    def as_dict(self):
        """{job: list of addresses when its indices run 0..n-1, else {index: address}}."""
        out = {}
        for job, tasks in self._jobs.items():
            indices = sorted(tasks)
            out[job] = [tasks[i] for i in indices] if indices == list(range(len(indices))) \
                else {i: tasks[i] for i in indices}
        return out

    def as_cluster_def(self):
        """The ClusterDef protocol buffer of this cluster (jobs in name order)."""
        return ClusterDef(job=[JobDef(name=job, tasks=self._jobs[job])
                               for job in sorted(self._jobs)])
