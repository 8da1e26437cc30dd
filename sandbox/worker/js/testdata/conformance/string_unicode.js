const s = "naïve 😀 café";
console.log(s.length, [...s].length, s.normalize("NFD").length, s.codePointAt(6), String.fromCodePoint(0x1f600) === "😀", "ß".toUpperCase(), "İ".toLowerCase().length);
