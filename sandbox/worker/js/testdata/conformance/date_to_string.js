const d = new Date(0);
console.log(String(d));
console.log(d.toString());
console.log(d.toDateString(), "|", d.toTimeString());
console.log(`${d}`);
console.log(d.toUTCString());
console.log(new Date(2024, 0, 15, 10, 30).toString());
