// (c) build n objects, JSON.stringify them, JSON.parse the text, sort by a field.
const n = input.n;
let seed = 7;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const items = [];
for (let i = 0; i < n; i++) {
  items.push({ id: i, name: 'item ' + i, score: Math.floor(rnd() * 1e6), active: i % 3 !== 0, tags: ['a', 'b' + (i % 7)] });
}
const text = JSON.stringify(items);
const back = JSON.parse(text);
back.sort((x, y) => x.score - y.score || x.id - y.id);
output = { bytes: text.length, first: back[0].id, last: back[n - 1].id, median: back[n >> 1].score };
