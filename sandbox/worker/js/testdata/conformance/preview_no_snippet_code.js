const k = { get x() { console.log("GETTER"); return 1; } };
console.log(new Map([[k, 1]]));
console.log({ get x() { return 1; }, set x(v) {}, get y() { return 1; }, set z(v) {} });
