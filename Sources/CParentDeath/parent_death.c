#include "CParentDeath.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>

int trendstore_die_with_parent(pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    // The parent may have ended between the spawn and the call: the signal was then never due.
    return getppid() == parent ? 0 : 1;
}

#elif defined(__APPLE__)
#include <pthread.h>
#include <sys/event.h>

static void *wait_for_parent(void *queue) {
    struct kevent event;
    while (kevent((int)(intptr_t)queue, NULL, 0, &event, 1, NULL) < 0 && errno == EINTR) {
    }
    kill(getpid(), SIGKILL);
    return NULL;
}

int trendstore_die_with_parent(pid_t parent) {
    int queue = kqueue();
    if (queue < 0) return -1;
    struct kevent watch;
    EV_SET(&watch, parent, EVFILT_PROC, EV_ADD | EV_ONESHOT, NOTE_EXIT, 0, NULL);
    if (kevent(queue, &watch, 1, NULL, 0, NULL) < 0) {
        int reason = errno;
        close(queue);
        if (reason == ESRCH) return 1;
        errno = reason;
        return -1;
    }
    if (getppid() != parent) return 1;
    pthread_t thread;
    int failed = pthread_create(&thread, NULL, wait_for_parent, (void *)(intptr_t)queue);
    if (failed != 0) {
        close(queue);
        errno = failed;
        return -1;
    }
    pthread_detach(thread);
    return 0;
}

#else
int trendstore_die_with_parent(pid_t parent) {
    (void)parent;
    errno = ENOSYS;
    return -1;
}
#endif
