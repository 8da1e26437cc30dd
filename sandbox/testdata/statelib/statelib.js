// statelib: a small state library shaped like Directive, for the adapter
// test of the playground (sandbox/statelib_test.go) and the README's
// operator guide. It knows nothing of the playground.
//
//	const system = createSystem({ module: { facts, events, resolvers }, plugins });
//	system.start(); system.dispatch({ type: "increment" }); await system.settle();
//
// system.facts is a Proxy-backed store: reads and writes go through traps
// to a Map. Plugins observe it: onFactSet(key, value, prev) and
// onFactDelete(key, prev) for a change outside a batch, onFactsBatch(changes)
// once for the changes of a batch (start, each dispatch); a change is
// {type: "set" | "delete", key, value, prev}. Resolvers run when their
// `when(facts)` holds, with an AbortSignal that system.stop() aborts.

export function createModule(name, def) {
  return { name, ...def };
}

export function createSystem(config = {}) {
  const mod = config.module ?? {};
  const initial = mod.facts ?? {};
  const plugins = [...(config.plugins ?? [])];
  const values = new Map();
  const running = new Map(); // resolver name → { controller, promise }
  const errors = [];
  let batching = 0;
  let changes = [];
  let started = false;
  let scheduled = false;

  const hook = (name, ...args) => {
    for (const p of plugins) {
      if (typeof p[name] === "function") p[name](...args);
    }
  };
  const record = (change) => {
    if (batching > 0) {
      changes.push(change);
    } else if (change.type === "set") {
      hook("onFactSet", change.key, change.value, change.prev);
    } else {
      hook("onFactDelete", change.key, change.prev);
    }
    schedule();
  };
  const batch = (fn) => {
    batching++;
    try {
      return fn();
    } finally {
      if (--batching === 0 && changes.length > 0) {
        const done = changes;
        changes = [];
        hook("onFactsBatch", done);
      }
    }
  };

  const facts = new Proxy(Object.create(null), {
    get: (_, key) => (typeof key === "string" ? values.get(key) : undefined),
    set: (_, key, value) => {
      if (typeof key !== "string") return false;
      const had = values.has(key);
      const prev = values.get(key);
      if (had && Object.is(prev, value)) return true;
      values.set(key, value);
      record({ type: "set", key, value, prev });
      return true;
    },
    deleteProperty: (_, key) => {
      if (!values.has(key)) return true;
      const prev = values.get(key);
      values.delete(key);
      record({ type: "delete", key, prev });
      return true;
    },
    has: (_, key) => values.has(key),
    ownKeys: () => [...values.keys()],
    getOwnPropertyDescriptor: (_, key) =>
      values.has(key) ? { value: values.get(key), writable: true, enumerable: true, configurable: true } : undefined,
  });

  function reconcile() {
    if (!started) return;
    for (const [name, r] of Object.entries(mod.resolvers ?? {})) {
      if (running.has(name) || !r.when(facts)) continue;
      const controller = new AbortController();
      const promise = Promise.resolve()
        .then(() => r.resolve(facts, { signal: controller.signal }))
        .catch((err) => {
          if (!controller.signal.aborted) {
            errors.push(err);
            hook("onError", err, name);
          }
        })
        .finally(() => running.delete(name));
      running.set(name, { controller, promise });
    }
  }

  function schedule() {
    if (!started || scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      reconcile();
    });
  }

  return {
    facts,
    errors,
    start() {
      batch(() => {
        for (const [key, value] of Object.entries(initial)) facts[key] = value;
        if (typeof mod.init === "function") mod.init(facts);
      });
      started = true;
      hook("onStart");
      schedule();
    },
    dispatch(event) {
      const handler = mod.events?.[event.type];
      if (typeof handler !== "function") throw new Error(`statelib: no event handler for ${JSON.stringify(event.type)}`);
      batch(() => handler(facts, event));
    },
    batch,
    async settle() {
      while (scheduled || running.size > 0) {
        await Promise.all([...running.values()].map((r) => r.promise));
        await new Promise((resolve) => queueMicrotask(resolve));
      }
    },
    stop() {
      for (const { controller } of running.values()) controller.abort(new Error("statelib: system stopped"));
      started = false;
      hook("onStop");
    },
    read(key) {
      return values.get(key);
    },
    snapshot() {
      return Object.fromEntries(values);
    },
  };
}
