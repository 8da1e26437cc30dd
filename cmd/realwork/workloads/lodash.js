// (a) lodash analysis: _.chain(rows).groupBy().map().sortBy() over n generated sales rows.
const _ = require('lodash');
const n = input.n;
let seed = 42;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const regions = ['north', 'south', 'east', 'west', 'central'];
const products = ['widget', 'gadget', 'doohickey', 'gizmo', 'thingamajig', 'whatsit'];
const rows = [];
for (let i = 0; i < n; i++) {
  rows.push({ id: i, region: regions[i % 5], product: products[Math.floor(rnd() * 6)],
    qty: 1 + Math.floor(rnd() * 20), price: Math.round(rnd() * 10000) / 100 });
}
output = _.chain(rows)
  .groupBy((r) => r.region + '/' + r.product)
  .map((rs, key) => ({ key, count: rs.length, units: _.sumBy(rs, 'qty'),
    revenue: Math.round(_.sumBy(rs, (r) => r.qty * r.price) * 100) / 100,
    top: _.maxBy(rs, 'price').id }))
  .sortBy(['revenue', 'key'])
  .reverse()
  .take(10)
  .value();
