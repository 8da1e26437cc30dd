console.log("%d|%i|%f", 1.5, 1.5, 1.5);
console.log("%d|%i|%f", "42.9abc", "42.9abc", "42.9abc");
console.log("%d|%i|%f", true, true, true);
console.log("%d|%i|%f", null, null, null);
console.log("%d|%i|%f", -0.5, -0.5, -0.5);
console.log("%d|%i|%f", 1e21, 1e21, 1e21);
console.log("%d|%i|%f", 5n, 5n, 5n);
console.log("%d|%i|%f", undefined, "", " ");
console.log("%d%%", 50, "rest");
