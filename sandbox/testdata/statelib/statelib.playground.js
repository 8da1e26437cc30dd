// The playground adapter for statelib (README, "Libraries that keep their
// own state"). The operator bundles it in place of the library:
//
//	esbuild statelib.playground.js --bundle --format=esm --outfile=DIR/statelib.js
//
// so that `import { createSystem } from "statelib"` gets the library with
// its factory wrapped: every system it creates carries one more plugin,
// which copies each change of the store into the run's facts (the fact
// events and done.facts), through the runtime's fact API: the object at
// globalThis[Symbol.for("playground.facts")], on which an assignment is a
// fact change and a delete a deletion. Snippets stay as written for the
// library. Outside the playground the symbol is absent and the plugin does
// nothing.
import { createSystem as createLibrarySystem } from "./statelib.js";

export * from "./statelib.js";

const FACTS = Symbol.for("playground.facts");

// playgroundFacts is the plugin: it forwards the store's change hooks.
export function playgroundFacts() {
  const set = (key, value) => {
    const facts = globalThis[FACTS];
    if (facts) facts[key] = value;
  };
  const remove = (key) => {
    const facts = globalThis[FACTS];
    if (facts) delete facts[key];
  };
  return {
    name: "playground-facts",
    onFactSet: (key, value) => set(key, value),
    onFactDelete: (key) => remove(key),
    onFactsBatch: (changes) => {
      for (const c of changes) c.type === "delete" ? remove(c.key) : set(c.key, c.value);
    },
  };
}

// createSystem is the library's, with the plugin added after the user's.
export function createSystem(config = {}) {
  return createLibrarySystem({ ...config, plugins: [...(config.plugins ?? []), playgroundFacts()] });
}
