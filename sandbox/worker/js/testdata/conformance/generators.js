function* g() { const x = yield 1; console.log("got", x); yield* [2, 3]; return 4; }
const it = g();
console.log(JSON.stringify(it.next()), JSON.stringify(it.next("a")), JSON.stringify(it.next()), JSON.stringify(it.next()), JSON.stringify(it.next()));
