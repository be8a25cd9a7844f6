/**
 * Guest-side setup, evaluated inside each fresh QuickJS context before user code. It is a function
 * expression the host calls with the one bridge function, so the bridge lives only in this closure
 * and is never a property of `globalThis`. It installs `console`, `tools` and the aliased globals,
 * and returns `run(code)`, which resolves to a JSON text describing the outcome; the host only ever
 * reads strings out of the guest, so no host code runs guest getters or `toJSON`.
 *
 * The intrinsics it needs are captured up front: user code may replace `JSON.stringify` or
 * `Object.keys` for itself, but not for the boundary.
 */
export const PRELUDE = String.raw`(function (bridge, globalNames) {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const keysOf = Object.keys;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const isFiniteNumber = Number.isFinite;
  const ErrorConstructor = Error;
  const TypeErrorConstructor = TypeError;
  const ProxyConstructor = Proxy;
  const MapConstructor = Map;
  const StringOf = String;
  const AsyncFunction = (async () => {}).constructor;
  const globalObject = globalThis;

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
  for (const level of ["log", "info", "debug", "warn", "error"]) {
    consoleObject[level] = (...args) => { bridge("log", level, args.map(toText).join(" ")); };
  }
  defineProperty(globalObject, "console", { value: freeze(consoleObject), writable: false, enumerable: false, configurable: false });

  const reviveError = (payload) => {
    let data;
    try { data = parse(payload); } catch (_) { data = { _tag: "InternalToolError", message: "malformed tool error", fields: {} }; }
    const error = new ErrorConstructor(data.message);
    error.name = data._tag;
    error._tag = data._tag;
    for (const key of keysOf(data.fields)) {
      if (key !== "_tag" && key !== "message" && key !== "name" && key !== "stack") error[key] = data.fields[key];
    }
    return error;
  };

  const callTool = async (path, args) => {
    if (args.length > 1) throw new TypeErrorConstructor("tools." + path + " takes one input value, got " + args.length + " arguments");
    let inputText;
    if (args.length === 1 && args[0] !== undefined) {
      try { inputText = stringify(args[0]); } catch (cause) {
        throw new TypeErrorConstructor("tools." + path + ": the input is not JSON-serialisable: " + toText(cause && cause.message));
      }
      if (inputText === undefined) throw new TypeErrorConstructor("tools." + path + ": the input is not JSON-serialisable");
    }
    let outputText;
    try { outputText = await bridge("call", path, inputText); } catch (payload) { throw reviveError(payload); }
    return outputText === undefined ? undefined : parse(outputText);
  };

  const nodes = new MapConstructor();
  const node = (path) => {
    const known = nodes.get(path);
    if (known !== undefined) return known;
    const proxy = new ProxyConstructor(() => {}, {
      get: (_, key) => (typeof key === "symbol" || key === "then") ? undefined : node(path === "" ? key : path + "." + key),
      apply: (_, __, args) => {
        if (path === "") throw new TypeErrorConstructor("tools is the tool tree, not a tool: call tools.<namespace>.<tool>(input)");
        return callTool(path, args);
      },
      construct: () => { throw new TypeErrorConstructor("tools." + path + " is not a constructor"); },
      getPrototypeOf: () => null,
      setPrototypeOf: () => false,
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
      has: () => false,
      ownKeys: () => [],
      getOwnPropertyDescriptor: () => undefined
    });
    nodes.set(path, proxy);
    return proxy;
  };

  defineProperty(globalObject, "tools", { value: node(""), writable: false, enumerable: false, configurable: false });
  for (const name of globalNames) {
    defineProperty(globalObject, name, { value: node(name), writable: false, enumerable: false, configurable: false });
  }

  const describeError = (error) => {
    let tag = "Error";
    let message;
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
    return stringify({ ok: false, tag: StringOf(tag), message: StringOf(message) });
  };

  const serialise = (value) => {
    if (value === undefined) return stringify({ ok: true });
    const text = stringify(value, function (key, item) {
      const kind = typeof item;
      const where = key === "" ? "the returned value" : "the property " + stringify(key);
      if (kind === "function" || kind === "symbol" || kind === "bigint") {
        throw new TypeErrorConstructor("the result must be JSON-serialisable: " + where + " is a " + kind);
      }
      if (kind === "number" && !isFiniteNumber(item)) {
        throw new TypeErrorConstructor("the result must be JSON-serialisable: " + where + " is " + StringOf(item));
      }
      return item;
    });
    return stringify({ ok: true, json: text });
  };

  return async (code) => {
    try {
      const body = new AsyncFunction(code);
      return serialise(await body());
    } catch (error) {
      return describeError(error);
    }
  };
})`
