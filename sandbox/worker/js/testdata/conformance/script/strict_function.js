function loose() { implicitOne = 1; return typeof implicitOne; }
function strict() { "use strict"; try { implicitTwo = 2; } catch (e) { return e.name; } }
console.log(loose(), strict(), typeof implicitTwo);
