const t = new EventTarget();
t.addEventListener("x", (e) => e.preventDefault());
t.addEventListener("x", (e) => e.stopImmediatePropagation());
t.addEventListener("x", () => console.log("not reached"));
const e1 = new Event("x", { cancelable: true });
console.log(t.dispatchEvent(e1), e1.defaultPrevented, e1.cancelable, e1.type);
const e2 = new Event("x");
console.log(t.dispatchEvent(e2), e2.defaultPrevented);
