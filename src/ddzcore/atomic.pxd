# cython: language_level=3
"""64-bit atomics, a pause and a yield, and the sleep/wake handshake: the
handoffs between the threads of one call (the batch calls' crew in _kernel,
the vector env's workers in _vecenv).  A C block compiled into each module
that cimports it; nothing to link."""

from cpython.pythread cimport PyThread_type_lock, PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK

cdef extern from *:
    """
    /* Sequentially consistent 64-bit atomics for the workers' handoff, a pause for polling. */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline long long ddz_load(volatile long long *p) { return _InterlockedOr64(p, 0); }
    static __inline void ddz_store(volatile long long *p, long long v) { _InterlockedExchange64(p, v); }
    static __inline long long ddz_add(volatile long long *p, long long v) { return _InterlockedExchangeAdd64(p, v); }
    static __inline int ddz_cas(volatile long long *p, long long old, long long v) {
        return _InterlockedCompareExchange64(p, v, old) == old; }
    #if defined(_M_IX86) || defined(_M_X64)
    #define ddz_pause() _mm_pause()
    #else
    #define ddz_pause() __yield()
    #endif
    #else
    static inline long long ddz_load(volatile long long *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline void ddz_store(volatile long long *p, long long v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    static inline long long ddz_add(volatile long long *p, long long v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
    static inline int ddz_cas(volatile long long *p, long long old, long long v) {
        return __atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    #if defined(__x86_64__) || defined(__i386__)
    #define ddz_pause() __builtin_ia32_pause()
    #elif defined(__aarch64__) || defined(__arm__)
    #define ddz_pause() __asm__ __volatile__("yield")
    #else
    #define ddz_pause() ((void)0)
    #endif
    #endif
    #if defined(_WIN32)
    #include <windows.h>
    #define ddz_yield() ((void)SwitchToThread())
    #else
    #include <sched.h>
    #define ddz_yield() ((void)sched_yield())
    #endif
    """
    long long ddz_load(volatile long long* p) noexcept nogil
    void ddz_store(volatile long long* p, long long v) noexcept nogil
    long long ddz_add(volatile long long* p, long long v) noexcept nogil
    bint ddz_cas(volatile long long* p, long long old, long long v) noexcept nogil
    void ddz_pause() noexcept nogil
    void ddz_yield() noexcept nogil


cdef inline void ddz_sleep_while(long long* word, long long seen, long long* sleeping,
                                 PyThread_type_lock wake) noexcept nogil:
    """The sleeper's half of the handshake: sleep on `wake` (a lock the
    sleeper's poster keeps held) until *word is no longer `seen`.  It marks
    *sleeping first and then looks at *word, while the poster (ddz_wake)
    changes *word first and then looks at *sleeping: with sequentially
    consistent atomics at least one sees the other's change, so no post is
    missed.  A release while the sleeper is awake only makes a later sleep
    return early, and the loop looks again."""
    ddz_store(sleeping, 1)
    while ddz_load(word) == seen:
        PyThread_acquire_lock(wake, WAIT_LOCK)
    ddz_store(sleeping, 0)


cdef inline void ddz_wake(long long* sleeping, PyThread_type_lock wake) noexcept nogil:
    """The poster's half (after it changed the word ddz_sleep_while watches):
    wake the sleeper if it is (about to be) asleep."""
    if ddz_load(sleeping):
        PyThread_release_lock(wake)
