class Counter extends EventTarget {
  #n = 0;
  inc() { this.#n++; this.dispatchEvent(new CustomEvt("change", this.#n)); }
}
class CustomEvt extends Event { constructor(type, n) { super(type); this.n = n; } }
const c = new Counter();
c.addEventListener("change", (e) => console.log("change", e.n, e instanceof Event));
c.inc(); c.inc();
