// Symbol.toStringTag beside the class, as Node's inspect prints it.
console.log(Math, JSON, Reflect);
class Tagged {}
Tagged.prototype[Symbol.toStringTag] = "Tg";
console.log(new Tagged(), { [Symbol.toStringTag]: "own", a: 1 });
const n = Object.create(null);
Object.defineProperty(n, Symbol.toStringTag, { value: "N" });
console.log(n, { math: Math });
console.log([1, 2][Symbol.iterator](), (function* g() {})(), "x".matchAll(/x/g));
