// (k) string building with `+=` alone: n appends.
let s = '';
for (let i = 0; i < input.n; i++) s += i + ',Item ' + i + ',123,active\n';
output = { length: s.length, tail: s.slice(-20) };
