// Errors goja words its own way, caught: an object with no primitive (goja's text printed
// its Go struct and heap addresses), constructing what is not a constructor.
try { `${Object.create(null)}` } catch (e) { console.log(e.message) }
try { String({ toString: null, valueOf: null }) } catch (e) { console.log(e.message, String(e)) }
try { new Math.max() } catch (e) { console.log(e.message) }
try { new (() => {})() } catch (e) { console.log(e.message) }
try { [1].map(String, 1) ; console.log("ok") } catch (e) { console.log(e.message) }
console.log(`${Object.create(null)}`);
