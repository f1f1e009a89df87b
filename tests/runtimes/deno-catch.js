// The Deno app's import caught, to read the error's fields (an uncaught one prints only
// its message): prints the error's name, code and message as JSON.
try {
  await import("npm:agentscope-message");
  console.log(JSON.stringify({ loaded: true }));
} catch (e) {
  console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message }));
}
