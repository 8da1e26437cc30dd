// (i) regexes over n log lines: match, test, replace.
const n = input.n;
const actions = ['login', 'logout', 'view', 'edit', 'delete'];
const lines = [];
for (let i = 0; i < n; i++) {
  lines.push('2026-11-27T12:' + String(i % 60).padStart(2, '0') + ':00Z ' + (i % 17 === 0 ? 'ERROR' : 'INFO') +
    ' user=u' + (i % 997) + ' action=' + actions[i % 5] + ' ip=10.0.' + (i % 256) + '.' + (i % 13) + ' ms=' + ((i * 37) % 500));
}
const re = /user=(\w+) action=(\w+) ip=([\d.]+) ms=(\d+)/;
const counts = {};
let errors = 0, ms = 0, masked = 0;
for (const line of lines) {
  const m = re.exec(line);
  if (!m) continue;
  counts[m[2]] = (counts[m[2]] || 0) + 1;
  ms += +m[4];
  if (/\bERROR\b/.test(line)) errors++;
  masked += line.replace(/\d+\.\d+\.\d+\.\d+/g, 'x.x.x.x').length;
}
output = { counts, errors, ms, masked };
