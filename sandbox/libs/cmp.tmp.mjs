import * as full from 'mathjs'
import * as num from 'mathjs/number'
const names = JSON.parse(process.argv[2])
const inputs = [[], [2], [-2], [2.5], [-2.5], [0], [[1,2,3]], [[-1,2,-3]], [[[1,2],[3,4]]], [[1,2,3], 1], [[[1,2],[3,4]], 0], [3, 2], [-3, 2], [1.5, 2], [[1,2],[3,4]], ['2'], ['a','b'], [true], [null], [NaN], [Infinity], [1e308, 1e308], [10, 4], [[1,2,3,4], 0.5], [[1,2,3,4], [0.25, 0.75]], [2, 3, 4]]
const show = f => { try { const v = f(); return typeof v === 'function' ? 'fn' : full.format(v) + ':' + (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v) } catch (e) { return 'ERR' } }
let bad = 0
for (const n of names) {
  for (const a of inputs) {
    const F = full[n], N = num[n]
    const fv = typeof F === 'function' ? show(() => F(...structuredClone(a))) : show(() => F)
    const nv = typeof N === 'function' ? show(() => N(...structuredClone(a))) : show(() => N)
    if (n === 'random' || n === 'randomInt' || n === 'pickRandom') continue
    if (fv !== nv && !(nv === 'ERR' && fv === 'ERR')) { if (nv !== 'ERR' || true) { console.log(n, JSON.stringify(a), 'full=', fv, 'number=', nv); bad++ } }
  }
}
console.log('differences', bad)
