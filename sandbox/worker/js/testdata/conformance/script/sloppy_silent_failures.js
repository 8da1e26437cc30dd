NaN = 1;
undefined = 2;
console.log(NaN, undefined);
const frozen = Object.freeze({ a: 1 });
frozen.a = 2;
frozen.b = 3;
console.log(JSON.stringify(frozen));
"text".length = 1;
console.log("ok");
function g(a) { arguments[0] = 9; return a; }
console.log(g(1), (function () { return typeof arguments.callee; })());
