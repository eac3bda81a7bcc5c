// The one promise mutex: callers in one process run one at a time, in the order they came,
// each after the previous one settled (a failure does not stop the next). Used by the slot's
// lock and, per lock name, under the box's file locks. Not re-entrant: a holder that waits for
// the same mutex waits forever.

export interface Mutex {
  /** Runs `fn` once every earlier caller has settled; queued at the call, not at first await. */
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(fn) {
      const run = tail.then(fn);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

/** One mutex per key, forgotten when nobody holds or waits for it (keys may be many). */
export function createKeyedMutex(): <T>(key: string, fn: () => Promise<T>) => Promise<T> {
  const held = new Map<string, { mutex: Mutex; users: number }>();
  return async (key, fn) => {
    let entry = held.get(key);
    if (!entry) {
      entry = { mutex: createMutex(), users: 0 };
      held.set(key, entry);
    }
    entry.users++;
    try {
      return await entry.mutex.run(fn);
    } finally {
      if (--entry.users === 0) held.delete(key);
    }
  };
}
