try { structuredClone(() => 1); } catch (e) { console.log(e.name, e instanceof Error, e.code); }
try { structuredClone({ f: Symbol("x") }); } catch (e) { console.log(e.name); }
const err = structuredClone(new RangeError("bad", { cause: 1 }));
console.log(err instanceof RangeError, err.message, err.cause);
