// The checker, off the page's thread: typing stays fluid while a large invocation is checked.
// Each message is {id, kind: "examples" | "check" | "bench", text, times}; each answer
// {id, json, ms} (the time of the WebAssembly call, from performance.now()), {id, samples}
// for a bench, or {id, error} when the module trapped (the page then starts a new worker).
import init, { check, examples } from "./swizzle_playground.js";

// Loaded, then warmed by one check of the first example: the engine compiles the module's
// functions on their first call, which would otherwise count in the first check's time.
const ready = init({ module_or_path: new URL("swizzle_playground_bg.wasm", import.meta.url) }).then(
  () => check(JSON.parse(examples())[0].text),
);

function timed(text) {
  const start = performance.now();
  const json = check(text);
  return { json, ms: performance.now() - start };
}

self.onmessage = async ({ data }) => {
  try {
    await ready;
    if (data.kind === "examples") {
      self.postMessage({ id: data.id, json: examples() });
    } else if (data.kind === "check") {
      self.postMessage({ id: data.id, ...timed(data.text) });
    } else if (data.kind === "bench") {
      const samples = [];
      for (let i = 0; i < data.times; i++) samples.push(timed(data.text).ms);
      self.postMessage({ id: data.id, samples });
    }
  } catch (error) {
    self.postMessage({ id: data.id, error: String(error) });
  }
};
