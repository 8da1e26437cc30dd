// Relational operators read left to right: (a < b) < c, also when the
// snippet wrote the parentheses (the bundler drops them).
const lo = 0, hi = 10, x = 20;
console.log(lo < x < hi, (lo < x) < hi, lo < (x < hi), 3 > 2 > 1, 1 <= 2 <= 3 <= 0);
class A {}
const a = new A();
console.log((a instanceof A) < 2, ("k" in { k: 1 }) >= 1, a instanceof A === true);
console.log(1 < (2 + 1) < 3, f(1 < (2) < 3), [1 < ")" < 2, 1 < `(${(5)}` < 2]);
function f(v) { return v; }
const big = 5, mid = 3;
console.log(big > mid > 1 ? "chained" : "not", (big > mid) > 1);
const ñ = 1, lo2 = 0, hi2 = 5;
console.log(hi2 < (lo2 < ñ), `${hi2 < (lo2 < ñ)} ${lo2 < ñ < hi2}`, "(" + (hi2 > (lo2 < ")".length)));
