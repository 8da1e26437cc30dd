// (f) n rows ({id, name, v}) leave as `output`.
const rows = [];
for (let i = 0; i < input.n; i++) rows.push({ id: i, name: 'name-' + i, v: (i * 31) % 1000 });
output = rows;
