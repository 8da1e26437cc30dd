// (b) numeric sieve of Eratosthenes in a Uint8Array up to n*100.
const limit = input.n * 100;
const composite = new Uint8Array(limit + 1);
let count = 0;
for (let i = 2; i <= limit; i++) {
  if (composite[i] === 0) {
    count++;
    for (let j = i * i; j <= limit; j += i) composite[j] = 1;
  }
}
output = { limit, primes: count };
