import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execute, type ExecuteResult, type ToolTree } from "../src/index.js"
import { SECRET, testTools, tool } from "./support/tools.js"

/**
 * Each attempt tries to reach the host (its `process`, `require`, environment, files or the bridge)
 * and returns whatever it got. An attempt fails to escape when nothing host-only shows up anywhere in
 * the result: no secret from the environment, no host path, and no host tool it did not call openly.
 */
const CANARY = "CODEMODE_SECURITY_CANARY"

/** Tries `reach()` and, if it produced a function, calls it to read the host's process. */
const HARNESS = `
const attempt = (reach) => {
  try {
    const found = reach();
    if (typeof found === "function") {
      const made = found("return typeof process === 'undefined' ? 'no process' : process.env.${CANARY}");
      const value = typeof made === "function" ? made() : made;
      return typeof value === "function" ? "function" : value;
    }
    return typeof found === "object" && found !== null ? Object.keys(found).slice(0, 20) : String(found);
  } catch (error) {
    return "refused: " + (error && error.message);
  }
};
`

const hostOnly = (result: ExecuteResult) => {
  const text = JSON.stringify(result)
  return [SECRET, process.cwd(), import.meta.dirname, "node_modules", "/packages/"].filter((needle) => text.includes(needle))
}

const tools: ToolTree = {
  ...testTools(),
  spy: { hit: tool(Schema.Void, async () => null) },
  data: { record: tool(Schema.Void, async () => ({ name: "r1", nested: { list: [1, 2] } })) }
}
const globals = ["util", "data"]

const cases: ReadonlyArray<readonly [string, string]> = [
  ["constructor.constructor from globalThis", "return attempt(() => globalThis.constructor.constructor)"],
  ["constructor.constructor from this", "return attempt(() => this.constructor.constructor)"],
  ["Function from an object literal", "return attempt(() => ({}).constructor.constructor)"],
  ["Function from an array", "return attempt(() => [].constructor.constructor)"],
  ["Function from a string", "return attempt(() => ''.constructor.constructor)"],
  ["Function from a number", "return attempt(() => (1).constructor.constructor)"],
  ["Function from the tools root", "return attempt(() => tools.constructor.constructor)"],
  ["Function from a namespace node", "return attempt(() => tools.util.constructor.constructor)"],
  ["Function from a tool node", "return attempt(() => tools.util.echo.constructor.constructor)"],
  ["Function from a bare global", "return attempt(() => util.constructor.constructor)"],
  ["Function from another bare global", "return attempt(() => data.record.constructor.constructor)"],
  ["prototype of the tools Proxy", "return attempt(() => Object.getPrototypeOf(tools))"],
  ["prototype of a tool node", "return attempt(() => Object.getPrototypeOf(tools.util.echo))"],
  ["__proto__ of a node", "return attempt(() => tools.util.__proto__.constructor)"],
  ["Reflect.getPrototypeOf on a global", "return attempt(() => Reflect.getPrototypeOf(util))"],
  ["own keys of the tools Proxy", "return Reflect.ownKeys(tools).length"],
  ["property descriptors of a node", "return attempt(() => Object.getOwnPropertyDescriptors(tools.util))"],
  ["Function from a tool result", "const r = await data.record(); return attempt(() => r.constructor.constructor)"],
  ["Function from a nested tool result", "const r = await data.record(); return attempt(() => r.nested.list.constructor.constructor)"],
  ["Function from a caught tool error", "try { await util.notFound({ id: 'a' }) } catch (e) { return attempt(() => e.constructor.constructor) }"],
  ["Function from an opaque tool error", "try { await util.fail() } catch (e) { return attempt(() => e.constructor.constructor) }"],
  ["Function from a denied call's error", "try { await tools.nope.nothing() } catch (e) { return attempt(() => e.constructor.constructor) }"],
  ["Function from a tool promise", "const p = data.record(); await p; return attempt(() => p.constructor.constructor)"],
  ["async function constructor", "return attempt(() => (async () => {}).constructor)"],
  ["generator function constructor", "return attempt(() => (function* () {}).constructor)"],
  ["async generator constructor", "return attempt(() => (async function* () {}).constructor)"],
  ["indirect eval", "return attempt(() => (0, eval)('globalThis'))"],
  ["eval of require", "return attempt(() => eval('typeof require === \"undefined\" ? \"no require\" : require(\"fs\")'))"],
  ["import() of a host module", "try { const fs = await import('node:fs'); return Object.keys(fs) } catch (e) { return 'refused: ' + e.message }"],
  ["process on globalThis", "return typeof globalThis.process + ':' + typeof process"],
  ["require, module and __dirname", "return [typeof require, typeof module, typeof __dirname, typeof Buffer]"],
  ["fetch and timers", "return [typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof WebAssembly]"],
  ["thenable probe on the tools root", "const v = await tools; return [typeof v, v === tools, typeof tools.then]"],
  ["thenable probe on a namespace", "const v = await tools.util; return [v === tools.util, typeof tools.util.then]"],
  ["symbol keys on a node", "return [typeof tools[Symbol.iterator], typeof tools[Symbol.toPrimitive], typeof util[Symbol.for('nodejs.util.inspect.custom')]]"],
  ["the bridge on globalThis", "return Object.getOwnPropertyNames(globalThis).filter((name) => /bridge|__/i.test(name))"],
  ["the bridge under any global name", "return Object.getOwnPropertyNames(globalThis).filter((name) => { try { return typeof globalThis[name] === 'function' && Function.prototype.toString.call(globalThis[name]).includes('bridge') } catch { return false } })"],
  ["the bridge through console", "return Object.getOwnPropertyNames(console).map((name) => Function.prototype.toString.call(console[name])).filter((text) => !text.includes('native code') && text.includes('call'))"],
  ["the bridge through arguments.callee.caller", "function f() { return f.caller } try { console.log(f()) } catch (e) { return 'refused: ' + e.message } return attempt(() => f())"],
  ["Error.prepareStackTrace", "Error.prepareStackTrace = (e, frames) => frames.map((f) => f.getThis && f.getThis()); return String(new Error('x').stack).slice(0, 200)"],
  ["Error.captureStackTrace", "return typeof Error.captureStackTrace"],
  ["stack of a host-originated error", "try { await util.fail() } catch (e) { return String(e.stack) }"],
  ["Symbol.species on a tool promise", "class Evil extends Promise { static get [Symbol.species]() { return function () { return attempt(() => this.constructor.constructor) } } } const p = data.record(); return attempt(() => Object.getPrototypeOf(p).constructor[Symbol.species])"],
  ["Symbol.species on arrays", "Array[Symbol.species]; class A extends Array { static get [Symbol.species]() { return Function } } return attempt(() => new A(1).map(String).constructor)"],
  ["getter on the returned value", "return { get x() { return tools.spy.hit() } }"],
  ["toJSON on the returned value", "return { toJSON() { tools.spy.hit(); return 'from toJSON' } }"],
  ["getter on a tool input", "return await util.echo({ get x() { tools.spy.hit(); return 1 } })"],
  ["toJSON on a tool input", "return await util.echo({ toJSON() { return { replaced: true } } })"],
  ["Object.prototype pollution", "Object.prototype.isAdmin = true; Object.prototype.toJSON = undefined; return ({}).isAdmin"],
  ["Array.prototype poisoning before a call", "Array.prototype.map = () => { throw new Error('poisoned') }; JSON.stringify = () => 'x'; return await util.echo([1, 2])"],
  ["Proxy as a tool input", "return await util.echo(new Proxy({}, { get: () => { throw new Error('trap') }, ownKeys: () => { throw new Error('trap') } }))"],
  ["Proxy as the returned value", "return new Proxy({}, { ownKeys: () => ['a'], getOwnPropertyDescriptor: () => ({ value: 'p', enumerable: true, configurable: true }), get: () => 'p' })"],
  ["environment secrets in errors", "try { await util.fail() } catch (e) { return [e._tag, e.message, Object.keys(e)] }"],
  ["host paths in a syntax error", "try { eval('return ((') } catch (e) { return String(e.stack) }"],
  ["SharedArrayBuffer and Atomics", "return [typeof Atomics, typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(8).byteLength : 'none']"],
  ["WeakRef and FinalizationRegistry callbacks", "new FinalizationRegistry(() => tools.spy.hit()).register({}, 1); return 'registered'"],
  ["tool path through __proto__", "try { return await tools.__proto__.constructor({}) } catch (e) { return 'refused: ' + e._tag }"],
  ["tool path through constructor", "try { return await tools.constructor.constructor('return process')() } catch (e) { return 'refused: ' + e.message }"],
  ["tool path through hasOwnProperty", "try { return await tools.util.hasOwnProperty('echo') } catch (e) { return 'refused: ' + e._tag }"],
  ["tool path through toString", "try { return await tools.util.toString() } catch (e) { return 'refused: ' + e._tag }"],
  ["redefining tools", "try { globalThis.tools = { x: 1 }; delete globalThis.tools; return typeof tools.util } catch (e) { return 'refused: ' + e.message }"],
  ["defining properties on a node", "try { Object.defineProperty(tools.util, 'echo', { value: () => 'mine' }); return 'defined' } catch (e) { return 'refused: ' + e.message }"]
]

describe("security: escape attempts", () => {
  beforeAll(() => {
    process.env[CANARY] = SECRET
  })
  afterAll(() => {
    delete process.env[CANARY]
  })

  it("has at least 50 escape attempts", () => {
    expect(cases.length).toBeGreaterThanOrEqual(50)
  })

  it.each(cases)("%s does not reach the host", async (_, code) => {
    const result = await execute(`${HARNESS}\n${code}`, { tools, globals, timeoutMs: 5_000, onInternalError: () => undefined })
    expect(hostOnly(result)).toEqual([])
    expect(result.status).not.toBe("timeout")
    if (process.env["CODEMODE_SHOW_ATTEMPTS"] !== undefined) console.log(_, JSON.stringify(result))
  })

  it("runs getters and toJSON of a returned value inside the sandbox only", async () => {
    const result = await execute("let n = 0; return { get a() { return ++n }, b: { toJSON() { return 'b' + n } } }", { tools: {} })
    expect(result.result).toEqual({ a: 1, b: "b1" })
  })

  it("does not let prototype pollution survive into the next execution", async () => {
    await execute("Object.prototype.polluted = 1; Function.prototype.call = null; JSON.parse = () => 'evil'", { tools })
    const result = await execute("return [({}).polluted === undefined, typeof Function.prototype.call, JSON.parse('1'), await util.echo({ a: 1 })]", {
      tools,
      globals
    })
    expect(result.result).toEqual([true, "function", 1, { a: 1 }])
  })

  it.each([
    ["while (true)", "while (true) {}", /^timeout$/],
    ["for (;;) with try/finally", "for (;;) { try { while (true) {} } finally { continue } }", /^timeout$/],
    ["a huge regular expression backtrack", "/^(a+)+$/.test('a'.repeat(40) + 'b'); return 'done'", /^timeout$/],
    ["deep recursion", "const f = () => f(); f()", /^error$/],
    ["ArrayBuffer(1 << 30)", "new ArrayBuffer(1 << 30)", /^error$/],
    ["string doubling", "let s = 'ab'; for (;;) s += s", /^error$/],
    ["array growth", "const a = []; for (;;) a.push({ n: a.length })", /^(error|timeout)$/],
    ["10k pending promises", "await Promise.all(Array.from({ length: 10000 }, () => new Promise(() => {})))", /^timeout$/],
    ["unbounded console.log", "for (;;) console.log('spam '.repeat(100))", /^timeout$/],
    ["a promise callback queued after the deadline", "const loop = () => Promise.resolve().then(loop); loop(); await new Promise(() => {})", /^timeout$/]
  ])("stops %s", async (_, code, status) => {
    // Attacks that must hit a limit other than time get a generous deadline, so a slow machine
    // cannot turn their error into a timeout.
    const timeoutMs = status.source === "^error$" ? 10_000 : 300
    const result = await execute(code, { tools: {}, timeoutMs, memoryLimitBytes: 32 * 1024 * 1024 })
    expect(result.status).toMatch(status)
    expect(result.logs.length).toBeLessThanOrEqual(200)
    expect(hostOnly(result)).toEqual([])
  })
})
