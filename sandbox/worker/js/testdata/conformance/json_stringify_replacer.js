console.log(JSON.stringify({ a: 1, b: 2, c: { a: 3 } }, ["a", "c"]), JSON.stringify("\u2028\ud800"), JSON.stringify({ toJSON() { return "tj"; } }));
