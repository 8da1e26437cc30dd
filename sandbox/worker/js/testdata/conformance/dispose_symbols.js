console.log(typeof Symbol.dispose, typeof Symbol.asyncDispose, String(Symbol.dispose));
class R { [Symbol.dispose]() { console.log("disposed"); } }
console.log(Object.getOwnPropertySymbols(R.prototype).length, Object.getOwnPropertyNames(R.prototype));
new R()[Symbol.dispose](); console.log(JSON.stringify(Object.getOwnPropertyDescriptor(Symbol, "asyncDispose")), Symbol.asyncDispose.description);
