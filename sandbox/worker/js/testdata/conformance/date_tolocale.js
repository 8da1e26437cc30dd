const d = new Date(Date.UTC(2024, 0, 15, 14, 30, 0));
console.log(d.toLocaleDateString("en-US", { timeZone: "UTC" }), d.toLocaleTimeString("en-US", { timeZone: "UTC" }), d.toLocaleString("en-US", { timeZone: "UTC" }));
