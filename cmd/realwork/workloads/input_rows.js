// (e) n rows arrive as `input.rows` ({id, name, v}, about 40 bytes of JSON each); sum a field.
let sum = 0;
for (const r of input.rows) sum += r.v;
output = { rows: input.rows.length, sum };
