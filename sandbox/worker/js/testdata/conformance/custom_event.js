class Emitter extends EventTarget {
  emit(type, detail) { return this.dispatchEvent(new CustomEvent(type, { detail, cancelable: true })); }
}
const em = new Emitter();
em.addEventListener("order", e => console.log("order received", e.detail, e.type, e instanceof Event));
em.addEventListener("order", e => { if (e.detail.total > 100) e.preventDefault(); }, { once: true });
console.log(em.emit("order", { id: 1, total: 150 }), em.emit("order", { id: 2, total: 200 }));
const ev = new CustomEvent("x", { detail: [1] }); console.log(ev.detail, ev.bubbles, ev.cancelable, ev.defaultPrevented);
console.log(Object.prototype.toString.call(ev), CustomEvent.length, new CustomEvent("y").detail); try { new CustomEvent() } catch (e) { console.log(e.name, e.message) }
