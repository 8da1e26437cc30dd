// (j) Map/Set counting over n items.
const n = input.n;
const counts = new Map();
const seen = new Set();
const pairs = new Set();
for (let i = 0; i < n; i++) {
  const k = 'k' + ((i * 7919) % 1009);
  counts.set(k, (counts.get(k) || 0) + 1);
  seen.add((i * 31) % 4099);
  if (i % 3 === 0) pairs.add(k + ':' + (i % 11));
}
let max = 0, maxKey = '';
for (const [k, c] of counts) if (c > max || (c === max && k < maxKey)) { max = c; maxKey = k; }
output = { keys: counts.size, unique: seen.size, pairs: pairs.size, max, maxKey };
