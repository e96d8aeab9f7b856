#ifndef TRENDSTORE_CPARENTDEATH_H
#define TRENDSTORE_CPARENTDEATH_H

#include <sys/types.h>

/// Makes this process die by SIGKILL when the process `parent` ends, so a command run in a
/// child by a supervising parent (the command-line tool's fault supervision) never outlives
/// it: a SIGKILL of the parent, as a kill trial or a task manager sends, ends the child too.
///
/// On Linux the kernel does it (`PR_SET_PDEATHSIG`); on Apple platforms a thread waits on a
/// kqueue for the parent's exit. Returns 0 when armed, 1 when `parent` is no longer this
/// process's parent (it ended before the call: the caller should end at once), -1 when it
/// could not be armed (errno says why).
int trendstore_die_with_parent(pid_t parent);

#endif
