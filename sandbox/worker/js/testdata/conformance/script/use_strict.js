"use strict";
try {
  undeclared = 1;
} catch (e) {
  console.log(e.name, e.message);
}
console.log(this === globalThis);
function f() { return this; }
console.log(f());
