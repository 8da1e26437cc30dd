// Node's Timeout handles: unref'd timers do not keep the run alive, refresh
// re-arms, the handle converts to its id and clearTimeout takes either.
const order = [];
const t = setTimeout(() => order.push("never: cleared by id"), 5);
console.log(typeof t, t.constructor.name, t.hasRef(), t.unref() === t, t.hasRef(), t.ref() === t, t.hasRef());
console.log(typeof +t, `${t}` === String(+t), typeof t.close, typeof t.refresh);
clearTimeout(+t);
let runs = 0;
const u = setTimeout(() => { order.push("u" + ++runs); if (runs < 3) u.refresh(); }, 5);
const closed = setTimeout(() => order.push("never: closed"), 1);
console.log(closed.close() === closed);
closed.refresh(); // a cleared timer stays cleared
let ticks = 0;
const tick = setInterval(() => ticks++, 4);
tick.unref();
setTimeout(() => order.push("never: unref'd"), 1000).unref();
const moved = setTimeout(() => order.push("moved"), 40);
setTimeout(() => moved.refresh(), 30); // now due at 70, after "at 60"
setTimeout(() => order.push("at 60"), 60);
setTimeout(() => console.log(order, ticks > 0), 90);
