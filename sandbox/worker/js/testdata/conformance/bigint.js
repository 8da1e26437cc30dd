console.log((2n ** 64n).toString(), BigInt(Number.MAX_SAFE_INTEGER) + 2n, typeof 1n, BigInt.asUintN(8, 257n), 10n / 3n, (-7n) % 3n);
