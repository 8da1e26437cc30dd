// TypeErrors the engine throws, caught by the snippet: their message and
// stack's first line in V8's words; an error the snippet makes is its own.
const cfg = {};
try { cfg.load(); } catch (e) { console.log(e.message); console.log(e.stack.split("\n")[0]); }
try { undefined.name; } catch (e) { console.log(e.message, e instanceof TypeError, String(e)); }
let u;
try { u.x.y; } catch (err) { console.log(err.message); }
try { const f = undefined; f(); } catch (err) { console.log(err.message); }
try { new cfg.Client(); } catch (err) { console.log(err.message); }
try { throw new TypeError("Cannot read property 'q' of undefined"); } catch (err) { console.log(err.message); }
async function g() { try { await Promise.resolve().then(() => cfg.missing()); } catch (e) { console.log("async", e.message); } }
await g();
try { try { cfg.a.b; } catch (e) { throw e; } } catch (e2) { console.log("rethrown", e2.message); }
function parse(text) { try { return JSON.parse(text).user.name; } catch (e) { return { error: e.message }; } }
console.log(parse('{"user":{"name":"ada"}}'), parse("{}"), parse("{"));
