const user = { id: 1 };
console.log("user", user.id);
console.log(user.profile.name);
