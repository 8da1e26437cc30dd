// (g) a fact holding n rows ({id, name, v}): require('playground').facts in script mode.
const { facts } = require('playground');
const rows = [];
for (let i = 0; i < input.n; i++) rows.push({ id: i, name: 'name-' + i, v: (i * 31) % 1000 });
facts.rows = rows;
output = rows.length;
