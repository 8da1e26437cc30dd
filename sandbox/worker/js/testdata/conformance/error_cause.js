const e = new Error("outer", { cause: new TypeError("inner") });
console.log(e.message, e.cause instanceof TypeError, e.cause.message);
const ag = new AggregateError([new Error("a"), new Error("b")], "many");
console.log(ag.name, ag.message, ag.errors.length);
