// The page's shared state: the server's hello and the run whose events are
// shown. Modules read and write these fields; nothing else is global.
export const state = {
  /** @type {import("../client.js").HelloMessage | null} */
  hello: null,
  /** @type {{ id: string, timeline: object[], facts: Map<string, any>, calls: object[], done: object | null, running: boolean } | null} */
  current: null,
};

/** newRun is the record of a run the page shows. */
export function newRun(id) {
  return { id, timeline: [], facts: new Map(), calls: [], done: null, running: true };
}
