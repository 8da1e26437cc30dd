// (d) build a CSV line by line with `csv += …`, then parse it with papaparse.
const Papa = require('papaparse');
const n = input.n;
let csv = 'id,name,amount,status\n';
for (let i = 0; i < n; i++) {
  csv += i + ',Item ' + i + ',' + ((i * 7919) % 1000) + ',' + (i % 4 === 0 ? 'closed' : 'active') + '\n';
}
const parsed = Papa.parse(csv, { header: true, dynamicTyping: true, skipEmptyLines: true });
let total = 0, closed = 0;
for (const r of parsed.data) { total += r.amount; if (r.status === 'closed') closed++; }
output = { bytes: csv.length, rows: parsed.data.length, total, closed, errors: parsed.errors.length };
