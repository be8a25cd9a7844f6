/**
 * Guest-side setup, evaluated inside each fresh QuickJS context before user code. It is a function
 * expression the host calls with the one log function, so that function lives only in this closure
 * and is never a property of `globalThis`. It installs `console` and `tools` and returns the three
 * entry points the host holds: `run(code, globalNamesJson, maxInputBytes)`, which binds the aliased globals and
 * resolves to a JSON text describing the outcome; `takeCalls()`, which hands over the tool calls
 * made since it was last called; and `settle(answersJson)`, which resolves or rejects them. The host
 * only ever reads strings out of the guest, so no host code runs guest getters or `toJSON`. The
 * outcome text is spliced from strings for the same reason: stringifying a record would consult
 * whatever `toJSON` user code put on `Object.prototype`, which could forge the outcome.
 *
 * Tool calls wait in this closure until the host takes them once the guest has run as far as it
 * can, so a burst of calls (`Promise.all`) crosses into the host as one text instead of one host
 * callback each, and their answers come back the same way. A failed call's answer is revived into an
 * Error inside a guard of its own: whatever user code put on `Error.prototype` then rejects that call
 * alone with what it threw, not the settling of the others.
 *
 * The intrinsics it needs are captured up front: user code may replace `JSON.stringify` or
 * `Object.keys` for itself, but not for the boundary. Pending calls and tree nodes are kept in
 * prototype-less records, so nothing user code puts on a prototype is consulted on the way.
 *
 * Compiling this text is a good part of what building a realm costs, at a price per character, so it
 * stays terse (the refusing Proxy traps are shared, helpers used once are inlined) and a realm
 * compiles its minified form, `PRELUDE` in `src/generated/prelude.ts`, which `pnpm generate` writes
 * from this source.
 *
 * `SharedArrayBuffer` and `Atomics` are removed before user code runs: in this QuickJS build a
 * growable `SharedArrayBuffer` exposes the instance's linear memory. A tool path is a chain of
 * identifiers of at most `MAX_PATH_CHARS` characters; any other property of `tools` is `undefined`.
 * Values that JSON would turn into `{}` (a `Map`, a `Set`, a typed array…) are refused in tool
 * inputs and in the result, like functions and BigInt.
 */
/** The longest tool path the guest can name: `tools.` followed by at most this many characters. */
export const MAX_PATH_CHARS = 256

export const PRELUDE_SOURCE = String.raw`(function (log) {
  "use strict";
  const stringify = JSON.stringify, parse = JSON.parse, keysOf = Object.keys, defineProperty = Object.defineProperty;
  const isFiniteNumber = Number.isFinite, ErrorConstructor = Error, TypeErrorConstructor = TypeError;
  const PromiseConstructor = Promise, ProxyConstructor = Proxy, StringOf = String, isArray = Array.isArray;
  const apply = Reflect.apply, getPrototypeOf = Object.getPrototypeOf;
  const objectPrototype = Object.prototype, describeObject = Object.prototype.toString, sliceOf = String.prototype.slice;
  const jsonBrands = { __proto__: null, "[object Object]": true, "[object Number]": true, "[object String]": true, "[object Boolean]": true };
  const AsyncFunction = (async () => {}).constructor, globalObject = globalThis;
  const constant = (name, value) => defineProperty(globalObject, name, { value, writable: false, enumerable: false, configurable: false });
  delete globalObject.SharedArrayBuffer;
  delete globalObject.Atomics;
  let maxInputBytes = 0;

  // A-Z a-z _ $ first, digits after: checked with string comparisons, which user code cannot
  // redefine (it can replace what a RegExp consults).
  const isIdentifier = (key) => {
    const length = key.length;
    if (length === 0 || length > MAX_PATH_CHARS) return false;
    for (let index = 0; index < length; index++) {
      const c = key[index];
      const letter = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_" || c === "$";
      if (!letter && !(index > 0 && c >= "0" && c <= "9")) return false;
    }
    return true;
  };

  // Objects JSON has a form for: arrays, plain objects, and those that say how (toJSON, as Date does).
  const jsonKind = (key, item, what) => {
    const kind = typeof item;
    const where = key === "" ? what : "the property " + stringify(key);
    if (kind === "function" || kind === "symbol" || kind === "bigint") throw new TypeErrorConstructor(where + " is a " + kind + ", which JSON cannot carry");
    if (kind === "number" && !isFiniteNumber(item)) throw new TypeErrorConstructor(where + " is " + StringOf(item) + ", which JSON cannot carry");
    if (kind === "object" && item !== null && !isArray(item) && typeof item.toJSON !== "function") {
      const prototype = getPrototypeOf(item);
      const brand = prototype === objectPrototype || prototype === null ? "[object Object]" : apply(describeObject, item, []);
      if (!jsonBrands[brand]) throw new TypeErrorConstructor(where + " is a " + apply(sliceOf, brand, [8, -1]) + ", which JSON would turn into {}");
    }
    return item;
  };

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

  const inputReplacer = function (key, item) { return jsonKind(key, item, "the input"); };
  const rejectWith = Promise.reject;
  // The answer's Error is built inside the settling of this call alone: whatever user code put on
  // Error.prototype then rejects this call with what it threw, not the settling of the others.
  const revive = (data) => {
    try {
      const error = new ErrorConstructor(data.message);
      error.name = data._tag;
      error._tag = data._tag;
      for (const key of keysOf(data.fields)) {
        if (key !== "_tag" && key !== "message" && key !== "name" && key !== "stack") error[key] = data.fields[key];
      }
      return error;
    } catch (thrown) {
      return thrown;
    }
  };
  // Not an async function: a call is the one promise its answer settles, which keeps a burst of
  // calls cheap; a refusal here is a rejected promise, as an async function's throw would be.
  const callTool = (path, quotedPath, args) => {
    try {
      if (args.length > 1) throw new TypeErrorConstructor("tools." + path + " takes one input value, got " + args.length + " arguments");
      let input = "";
      const value = args.length === 1 ? args[0] : undefined;
      if (value !== undefined) {
        const kind = typeof value;
        let text;
        // A string, boolean or finite number is its own JSON; anything else goes through the checks.
        if (kind === "string" || kind === "boolean" || (kind === "number" && isFiniteNumber(value))) text = stringify(value);
        else {
          try { text = stringify(value, inputReplacer); } catch (cause) {
            throw new TypeErrorConstructor("tools." + path + ": the input is not JSON-serialisable: " + toText(cause && cause.message));
          }
          if (text === undefined) throw new TypeErrorConstructor("tools." + path + ": the input is not JSON-serialisable");
        }
        // Characters, not bytes: at most 3 bytes of UTF-8 each, so the host's byte limit is never passed unseen.
        if (text.length > maxInputBytes) {
          const error = new ErrorConstructor("tools." + path + ": the input is " + text.length + " characters of JSON, over the " + maxInputBytes + "-byte limit");
          error.name = "ToolInputError";
          error._tag = "ToolInputError";
          throw error;
        }
        input = "," + stringify(text);
      }
      const callId = nextCallId++;
      // Registered before it is queued: should building the promise fail (out of memory), the host never
      // runs a call whose answer nothing would wait for.
      const answered = new PromiseConstructor((resolve, reject) => { waiting[callId] = [resolve, reject]; });
      outgoing += (outgoing === "" ? "[" : ",[") + callId + "," + quotedPath + input + "]";
      return answered;
    } catch (error) {
      return apply(rejectWith, PromiseConstructor, [error]);
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
        if (answer[1] === 0) callbacks[0](answer.length > 2 ? answer[2] : undefined);
        else callbacks[1](revive(answer[2]));
      }
    }
  };

  const refuse = () => false;
  const fixedTraps = { __proto__: null, getPrototypeOf: () => null, setPrototypeOf: refuse, set: refuse, defineProperty: refuse, deleteProperty: refuse, has: refuse, ownKeys: () => [], getOwnPropertyDescriptor: () => undefined };
  const nodes = { __proto__: null };
  const node = (path) => {
    const known = nodes[path];
    if (known !== undefined) return known;
    // A path is identifiers joined by dots, so quoting it is its JSON form.
    const quotedPath = '"' + path + '"', children = { __proto__: null };
    return (nodes[path] = new ProxyConstructor(() => {}, {
      __proto__: fixedTraps,
      get: (_, key) => {
        if (typeof key === "symbol") return undefined;
        const child = children[key];
        if (child !== undefined) return child;
        if (key === "then" || !isIdentifier(key)) return undefined;
        const next = path === "" ? key : path + "." + key;
        return next.length > MAX_PATH_CHARS ? undefined : (children[key] = node(next));
      },
      apply: (_, __, args) => {
        if (path === "") throw new TypeErrorConstructor("tools is the tool tree, not a tool: call tools.<namespace>.<tool>(input)");
        return callTool(path, quotedPath, args);
      },
      construct: () => { throw new TypeErrorConstructor("tools." + path + " is not a constructor"); }
    }));
  };
  constant("tools", node(""));

  // Each property is read once, into a string: a getter answering differently on every read cannot
  // make the report say one thing and mean another.
  const describeError = (error) => {
    let tag = "Error", message;
    try {
      if (typeof error === "object" && error !== null) {
        const ownTag = error._tag, name = error.name, text = error.message;
        tag = typeof ownTag === "string" ? ownTag : typeof name === "string" ? name : "Error";
        message = typeof text === "string" ? text : toText(error);
      } else {
        tag = "Thrown";
        message = toText(error);
      }
    } catch (_) {
      tag = "Error";
      message = "[unprintable error]";
    }
    return '{"ok":false,"tag":' + stringify(StringOf(tag)) + ',"message":' + stringify(StringOf(message)) + "}";
  };

  const resultReplacer = function (key, item) {
    try { return jsonKind(key, item, "the returned value"); } catch (error) {
      throw new TypeErrorConstructor("the result must be JSON-serialisable: " + error.message);
    }
  };

  const run = async (code, globalNamesJson, inputLimit) => {
    maxInputBytes = inputLimit;
    for (const name of parse(globalNamesJson)) constant(name, node(name));
    try {
      const value = await new AsyncFunction(code)();
      const json = value === undefined ? undefined : stringify(value, resultReplacer);
      return json === undefined ? '{"ok":true}' : '{"ok":true,"json":' + stringify(json) + "}";
    } catch (error) {
      return describeError(error);
    }
  };

  return [run, takeCalls, settle];
})`.replaceAll("MAX_PATH_CHARS", String(MAX_PATH_CHARS))
