const { a, b: { c = 5 } = {}, ...rest } = { a: 1, d: 4, e: 5 };
const [x, , y = 3, ...zs] = [1, 2, undefined, 4, 5];
console.log(a, c, JSON.stringify(rest), x, y, zs.join());
