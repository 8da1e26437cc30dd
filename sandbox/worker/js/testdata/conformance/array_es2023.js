const a = [3, 1, 2];
console.log(a.toSorted().join(), a.toReversed().join(), a.with(0, 9).join(), a.toSpliced(1, 1).join(), a.join(), a.findLast((x) => x > 1), a.findLastIndex((x) => x > 5), a.at(-1));
