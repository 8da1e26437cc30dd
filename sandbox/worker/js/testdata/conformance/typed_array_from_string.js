console.log(Uint8Array.from("123").join(), Int16Array.from("45", (x) => x * 2).join(), Float32Array.from(new Set([1.5])).join());
