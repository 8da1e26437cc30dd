// A delay under 1 ms is 1 ms, as in Node: after the 1 ms timers set before it.
setTimeout(() => console.log("A 1ms"), 1);
setTimeout(() => console.log("B 0ms"), 0);
setTimeout(() => console.log("C none"));
setTimeout(() => { console.log("D 0"); setTimeout(() => console.log("F inner 0"), 0); }, 0);
setTimeout(() => console.log("E 2ms"), 2);
