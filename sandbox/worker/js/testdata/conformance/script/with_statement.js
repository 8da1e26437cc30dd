with (Math) {
  console.log(max(1, 2), floor(PI), round(E * 100));
}
const point = { x: 1, y: 2 };
with (point) { console.log(x + y); }
