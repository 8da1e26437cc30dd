const Lib = {};
console.log("before");
const c = new Lib.Client();
