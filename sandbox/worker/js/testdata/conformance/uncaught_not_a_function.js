const cfg = { name: "app" };
console.log("loading", cfg.name);
cfg.load();
