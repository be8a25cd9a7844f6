/**
 * Guest-side setup, evaluated inside each fresh QuickJS context before user code. It is a function
 * expression the host calls with the one log function, so that function lives only in this closure
 * and is never a property of `globalThis`. It installs `console` and `tools` and returns the three
 * entry points the host holds: `run(code, globalNamesJson)`, which binds the aliased globals and
 * resolves to a JSON text describing the outcome; `takeCalls()`, which hands over the tool calls
 * made since it was last called; and `settle(answersJson)`, which resolves or rejects them. The host
 * only ever reads strings out of the guest, so no host code runs guest getters or `toJSON`. The
 * outcome text is spliced from strings for the same reason: stringifying a record would consult
 * whatever `toJSON` user code put on `Object.prototype`, which could forge the outcome.
 *
 * Tool calls wait in this closure until the host takes them once the guest has run as far as it
 * can, so a burst of calls (`Promise.all`) crosses into the host as one text instead of one host
 * callback each, and their answers come back the same way. A failed call is revived into an Error
 * by the call that waits on it, not by `settle`: whatever user code put on `Error.prototype` then
 * fails that call alone, not the settling of the others.
 *
 * The intrinsics it needs are captured up front: user code may replace `JSON.stringify` or
 * `Object.keys` for itself, but not for the boundary. Pending calls and tree nodes are kept in
 * prototype-less records, so nothing user code puts on a prototype is consulted on the way.
 *
 * Compiling this text is most of what building a realm costs (QuickJS compiles roughly 50 µs per
 * KiB here), so it stays terse: the refusing Proxy traps are shared, and helpers used once are inlined.
 */
export const PRELUDE = String.raw`(function (log) {
  "use strict";
  const stringify = JSON.stringify, parse = JSON.parse, keysOf = Object.keys, defineProperty = Object.defineProperty;
  const isFiniteNumber = Number.isFinite, ErrorConstructor = Error, TypeErrorConstructor = TypeError;
  const PromiseConstructor = Promise, ProxyConstructor = Proxy, StringOf = String;
  const AsyncFunction = (async () => {}).constructor, globalObject = globalThis;
  const constant = (name, value) => defineProperty(globalObject, name, { value, writable: false, enumerable: false, configurable: false });

  const toText = (value) => {
    if (typeof value === "string") return value;
    try {
      const text = stringify(value);
      return text === undefined ? StringOf(value) : text;
    } catch (_) {
      try { return StringOf(value); } catch (_) { return "[unprintable]"; }
    }
  };

  const consoleObject = {};
  for (const level of ["log", "info", "debug", "warn", "error"]) consoleObject[level] = (...args) => { log(level, args.map(toText).join(" ")); };
  constant("console", Object.freeze(consoleObject));

  let outgoing = "", nextCallId = 0;
  const waiting = { __proto__: null };

  const callTool = async (path, args) => {
    const name = "tools." + path;
    if (args.length > 1) throw new TypeErrorConstructor(name + " takes one input value, got " + args.length + " arguments");
    let input = "";
    if (args.length === 1 && args[0] !== undefined) {
      let text;
      try { text = stringify(args[0]); } catch (cause) {
        throw new TypeErrorConstructor(name + ": the input is not JSON-serialisable: " + toText(cause && cause.message));
      }
      if (text === undefined) throw new TypeErrorConstructor(name + ": the input is not JSON-serialisable");
      input = "," + stringify(text);
    }
    const callId = nextCallId++;
    // Registered before it is queued: should building the promise fail (out of memory), the host never
    // runs a call whose answer nothing would wait for.
    const answered = new PromiseConstructor((resolve, reject) => { waiting[callId] = [resolve, reject]; });
    outgoing += (outgoing === "" ? "[" : ",[") + callId + "," + stringify(path) + input + "]";
    try {
      return await answered;
    } catch (data) {
      const error = new ErrorConstructor(data.message);
      error.name = data._tag;
      error._tag = data._tag;
      for (const key of keysOf(data.fields)) {
        if (key !== "_tag" && key !== "message" && key !== "name" && key !== "stack") error[key] = data.fields[key];
      }
      throw error;
    }
  };

  const takeCalls = () => {
    const text = outgoing;
    outgoing = "";
    return text;
  };

  const settle = (answersJson) => {
    const answers = parse(answersJson);
    for (let index = 0; index < answers.length; index++) {
      const answer = answers[index], callbacks = waiting[answer[0]];
      if (callbacks !== undefined) {
        delete waiting[answer[0]];
        callbacks[answer[1]](answer.length > 2 ? answer[2] : undefined);
      }
    }
  };

  const refuse = () => false;
  const fixedTraps = { __proto__: null, getPrototypeOf: () => null, setPrototypeOf: refuse, set: refuse, defineProperty: refuse, deleteProperty: refuse, has: refuse, ownKeys: () => [], getOwnPropertyDescriptor: () => undefined };
  const nodes = { __proto__: null };
  const node = (path) => nodes[path] ?? (nodes[path] = new ProxyConstructor(() => {}, {
    __proto__: fixedTraps,
    get: (_, key) => (typeof key === "symbol" || key === "then") ? undefined : node(path === "" ? key : path + "." + key),
    apply: (_, __, args) => {
      if (path === "") throw new TypeErrorConstructor("tools is the tool tree, not a tool: call tools.<namespace>.<tool>(input)");
      return callTool(path, args);
    },
    construct: () => { throw new TypeErrorConstructor("tools." + path + " is not a constructor"); }
  }));
  constant("tools", node(""));

  const describeError = (error) => {
    let tag = "Error", message;
    try {
      if (typeof error === "object" && error !== null) {
        tag = typeof error._tag === "string" ? error._tag : typeof error.name === "string" ? error.name : "Error";
        message = typeof error.message === "string" ? error.message : toText(error);
      } else {
        tag = "Thrown";
        message = toText(error);
      }
    } catch (_) {
      message = "[unprintable error]";
    }
    return '{"ok":false,"tag":' + stringify(StringOf(tag)) + ',"message":' + stringify(StringOf(message)) + "}";
  };

  const refuseNonJson = function (key, item) {
    const kind = typeof item;
    const where = key === "" ? "the returned value" : "the property " + stringify(key);
    if (kind === "function" || kind === "symbol" || kind === "bigint") throw new TypeErrorConstructor("the result must be JSON-serialisable: " + where + " is a " + kind);
    if (kind === "number" && !isFiniteNumber(item)) throw new TypeErrorConstructor("the result must be JSON-serialisable: " + where + " is " + StringOf(item));
    return item;
  };

  const run = async (code, globalNamesJson) => {
    for (const name of parse(globalNamesJson)) constant(name, node(name));
    try {
      const value = await new AsyncFunction(code)();
      const json = value === undefined ? undefined : stringify(value, refuseNonJson);
      return json === undefined ? '{"ok":true}' : '{"ok":true,"json":' + stringify(json) + "}";
    } catch (error) {
      return describeError(error);
    }
  };

  return [run, takeCalls, settle];
})`
