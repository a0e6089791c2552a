/*
 * libquire-dladdr-cache.so: dladdr() with a cache, preloaded into soffice by Quire's LibreOffice pool
 * (lib/pdf/office-process.ts; docs/adr/0013-libreoffice-pool.md, "dladdr cache").
 *
 * Why: LibreOffice asks dladdr() where its own code lives (osl_getModuleURLFromAddress, about 45 times per
 * document converted, for osl_loadModuleRelative). glibc answers by scanning the symbol table of the
 * object that holds the address, and LibreOffice's libmergedlo.so has a very large one: `perf` put 8-10%
 * of soffice's CPU in _dl_addr. The addresses asked about are always the same few functions, so their
 * answers are kept: 14-23% less CPU per conversion (LibreOffice 7.4, 2026-11-28).
 *
 * Why the answers stay right: dladdr() depends only on which objects are loaded where. An object loaded
 * later cannot take addresses an earlier one holds, so only an unload can change an answer; the cache is
 * emptied whenever glibc's count of unloaded objects (dl_iterate_phdr's dlpi_subs) has moved. The strings
 * in an answer belong to the loaded object, which is still loaded while the answer is served.
 *
 * Answers that glibc did not find (0) are not kept. The lock is held only to copy an entry, never while
 * calling into glibc, and never waited for: a call that still finds it taken after a few tries (another
 * thread preempted while copying, or a signal handler interrupting the holder) asks glibc directly, so
 * the cache can neither block nor deadlock. It is made anew in a child after fork().
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SLOTS 1024 /* a power of two */
#define WAYS 4     /* an address goes in one of 4 slots from its hash on: neighbours rarely push each other out */

struct entry {
  const void *addr;
  Dl_info info;
};

static struct entry cache[SLOTS];
static unsigned long long cached_subs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int (*real_dladdr)(const void *, Dl_info *);
static unsigned long hits;

/* How many answers came from the cache (tests read it). */
unsigned long quire_dladdr_cache_hits(void) {
  pthread_mutex_lock(&lock);
  unsigned long n = hits;
  pthread_mutex_unlock(&lock);
  return n;
}

/* Tries the lock a few times: its holder only copies 40 bytes, so a second thread gets it at once. */
static int try_lock(void) {
  for (int i = 0; i < 64; i++)
    if (pthread_mutex_trylock(&lock) == 0) return 1;
  return 0;
}

static void child_after_fork(void) { pthread_mutex_init(&lock, NULL); }

static void init(void) {
  real_dladdr = (int (*)(const void *, Dl_info *))dlsym(RTLD_NEXT, "dladdr");
  pthread_atfork(NULL, NULL, child_after_fork);
}

static int first_object(struct dl_phdr_info *info, size_t size, void *data) {
  /* dlpi_subs exists in every glibc since 2.4; the size check is what the manual asks for. */
  *(unsigned long long *)data = size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs ? info->dlpi_subs : ~0ULL;
  return 1; /* the counters are the same in every entry: stop at the first */
}

static unsigned long long objects_unloaded(void) {
  unsigned long long subs = ~0ULL;
  dl_iterate_phdr(first_object, &subs);
  return subs;
}

/* Fibonacci hashing: addresses a few bytes apart land far apart. */
static unsigned slot_of(const void *addr) { return (unsigned)(((uint64_t)(uintptr_t)addr * 0x9E3779B97F4A7C15ULL) >> 54) & (SLOTS - 1); }

/* The slot holding addr, or -1. Called with the lock held. */
static int find(const void *addr, unsigned first) {
  for (unsigned i = 0; i < WAYS; i++) {
    unsigned slot = (first + i) & (SLOTS - 1);
    if (cache[slot].addr == addr) return (int)slot;
  }
  return -1;
}

/* Where a new answer goes: an empty slot of its four, else the first. Called with the lock held. */
static unsigned free_slot(unsigned first) {
  for (unsigned i = 0; i < WAYS; i++) {
    unsigned slot = (first + i) & (SLOTS - 1);
    if (!cache[slot].addr) return slot;
  }
  return first;
}

int dladdr(const void *addr, Dl_info *info) {
  pthread_once(&once, init);
  if (!real_dladdr) return 0;
  unsigned long long subs = objects_unloaded();
  unsigned first = slot_of(addr);
  int hit = 0;
  if (try_lock()) {
    if (subs != cached_subs) {
      memset(cache, 0, sizeof cache);
      cached_subs = subs;
    } else if (addr) {
      int slot = find(addr, first);
      if (slot >= 0) {
        *info = cache[slot].info;
        hit = 1;
        hits++;
      }
    }
    pthread_mutex_unlock(&lock);
  }
  if (hit) return 1;

  int found = real_dladdr(addr, info);
  if (found && addr && subs != ~0ULL && try_lock()) {
    if (subs == cached_subs && find(addr, first) < 0) {
      unsigned slot = free_slot(first);
      cache[slot].addr = addr;
      cache[slot].info = *info;
    }
    pthread_mutex_unlock(&lock);
  }
  return found;
}
