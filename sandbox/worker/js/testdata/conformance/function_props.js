class Counter { static count = 0; static inc() { return ++Counter.count; } }
Counter.inc();
console.log(Counter, [Counter], { c: Counter });
function f() {}
f.prop = 1; f.nested = { a: [1, 2] };
console.log(f);
const self = () => {}; self.me = self; console.log(self);
console.log({ a: { b: { c: f } } });
class Big { static a = 1; static b = "two"; static c = [1, 2, 3]; static d = { x: 1 }; static e = null; static longName = "x".repeat(40); }
console.log(Big);
console.log(Object.assign(function named() {}, { [Symbol("s")]: 1 }));
