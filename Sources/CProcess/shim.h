// glibc's process descriptors (pidfd_open, since 2.36), which Swift's Glibc module leaves out,
// CPU affinity, whose cpu_set_t macros Swift cannot call and whose functions Glibc's module
// declares only under _GNU_SOURCE, and pipe2 (a pipe made close-on-exec at once, so that no
// process started meanwhile inherits it), declared there only under _GNU_SOURCE too.
#include <sys/pidfd.h>
#include <sched.h>

extern int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set);
extern int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
extern int pipe2(int pipefd[2], int flags);

/// Writes the CPUs this process may run on to `cpus`, lowest first, at most `capacity` of them;
/// how many there are (which may be more than `capacity`), or -1 with errno set.
static inline int authflow_allowed_cpus(int *cpus, int capacity) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  int count = 0;
  for (int cpu = 0; cpu < __CPU_SETSIZE; cpu++) {
    if (!__CPU_ISSET_S(cpu, sizeof set, &set)) continue;
    if (count < capacity) cpus[count] = cpu;
    count++;
  }
  return count;
}

/// Lets process `pid` (and the threads it starts from now on) run only on CPU `cpu`; 0, or -1
/// with errno set.
static inline int authflow_run_on_cpu(pid_t pid, int cpu) {
  if (cpu < 0 || cpu >= __CPU_SETSIZE) return -1;
  cpu_set_t set;
  __CPU_ZERO_S(sizeof set, &set);
  __CPU_SET_S(cpu, sizeof set, &set);
  return sched_setaffinity(pid, sizeof set, &set);
}
