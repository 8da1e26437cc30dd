console.log(Math.hypot(3, 4), Math.trunc(-4.7), Math.sign(-3), Math.cbrt(27), Math.log2(8), Math.clz32(1), Math.fround(5.5), Math.max(), Math.min(1, "2"));
