// The "playground" module every snippet may import. host's type,
// PlaygroundHost, is written by the type worker from the server's hello
// (its host function names), with the known signatures of the functions
// the shipped binary registers.
declare module "playground" {
  /**
   * Live state shown in the Facts pane: every assignment sends a fact
   * event (JSON values only; deleting a key sends a deletion).
   */
  export const facts: Record<string, any>;
  /** The run's input JSON (read-only), undefined when the run has none. */
  export const input: any;
  /** The server's host functions; each call returns a Promise and is traced as a call event. */
  export const host: PlaygroundHost;
}
