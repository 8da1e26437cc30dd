{
  function inner() { return 1; }
}
console.log(typeof inner, inner());
if (true) function viaIf() { return 2; }
console.log(typeof viaIf, viaIf());
console.log(typeof later);
{ function later() { return 3; } }
console.log(typeof later, later());
