console.log(typeof Intl);
try { new Intl.NumberFormat("en-US"); } catch (e) { console.log(e.name); }
