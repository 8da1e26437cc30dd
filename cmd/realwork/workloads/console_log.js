// (h) a large object through console.log: an array of n rows, then an object with n keys.
const rows = [];
const byName = {};
for (let i = 0; i < input.n; i++) {
  const r = { id: i, name: 'name-' + i, v: (i * 31) % 1000, tags: ['x', 'y'] };
  rows.push(r);
  byName[r.name] = r;
}
console.log(rows);
console.log(byName);
output = rows.length;
