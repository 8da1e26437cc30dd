console.log(010, 017 + 1, 08, 09.5, 0o10);
console.log("\101\102", "\0", "\08".length);
