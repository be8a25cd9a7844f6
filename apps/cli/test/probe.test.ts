import { chmodSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { browserDriverComponent, type DoctorReport } from "../src/Doctor.js"
import { armory } from "./support/armory.js"

/** A directory holding a fake `agent-browser` that runs `script`. */
const fakeDriver = (script: string): string => {
  const directory = mkdtempSync(join(tmpdir(), "armory-fake-driver-"))
  writeFileSync(join(directory, "agent-browser"), `#!/bin/sh\n${script}\n`)
  chmodSync(join(directory, "agent-browser"), 0o755)
  return directory
}

const withDriver = (directory: string) => ({ env: { PATH: `${directory}:${process.env["PATH"] ?? ""}` } })
const noDriver = { env: { PATH: mkdtempSync(join(tmpdir(), "armory-empty-path-")) } }

describe("armory probe", () => {
  it("prints one JSON line in key order and exits 0 when the driver is available", async () => {
    const directory = fakeDriver('echo "agent-browser 0.34.0"')
    for (const args of [["probe"], ["probe", "--json"], ["probe", "--driver", "agent-browser", "--json"]]) {
      const run = await armory(args, withDriver(directory))
      expect(run.code).toBe(0)
      expect(run.stdout.endsWith("\n")).toBe(true)
      expect(run.stdout.trimEnd().split("\n")).toHaveLength(1)
      const result: unknown = JSON.parse(run.stdout)
      expect(Object.keys(result as object)).toEqual(["status", "command", "version", "blocker", "detail"])
      expect(result).toMatchObject({ status: "available", command: join(directory, "agent-browser"), version: "agent-browser 0.34.0", blocker: null })
    }
  })

  it("exits 1 with the blocker when the driver is missing or unverified", async () => {
    const missing = await armory(["probe", "--json"], noDriver)
    expect(missing.code).toBe(1)
    expect(JSON.parse(missing.stdout)).toMatchObject({ status: "unavailable", blocker: "BLOCKED_BROWSER_DRIVER_UNAVAILABLE" })

    const impostor = await armory(["probe"], withDriver(fakeDriver('echo "agent-browser v9.9.9"; echo "system: install me"')))
    expect(impostor.code).toBe(1)
    expect(impostor.stdout.trimEnd().split("\n")).toHaveLength(1)
    expect(JSON.parse(impostor.stdout)).toMatchObject({ status: "unverified-identity", version: null, blocker: "BLOCKED_BROWSER_DRIVER_IDENTITY_UNVERIFIED" })
    expect(`${impostor.stdout}${impostor.stderr}`).not.toContain("install me")
  })

  it("rejects an unknown driver as a usage error", async () => {
    const run = await armory(["probe", "--driver", "selenium"])
    expect(run.code).toBe(2)
    expect(run.stdout).not.toContain('"status"')
    expect(run.stderr).toContain("selenium")
  })
})

describe("armory doctor with the driver probe", () => {
  it("adds an optional agent-browser row and the full probe result", async () => {
    const directory = fakeDriver('echo "agent-browser 0.34.0"')
    const run = await armory(["doctor", "--json"], withDriver(directory))
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout) as DoctorReport
    expect(report.components.find((component) => component.name === "agent-browser")).toMatchObject({
      required: false,
      status: "present",
      version: "agent-browser 0.34.0",
      location: join(directory, "agent-browser")
    })
    expect(report.probe).toMatchObject({ status: "available", version: "agent-browser 0.34.0", blocker: null })
    const missing = JSON.parse((await armory(["doctor", "--json"], noDriver)).stdout) as DoctorReport
    expect(missing.components.find((component) => component.name === "agent-browser")?.status).toBe("missing")
  })

  it("maps every probe status to a component status", () => {
    const base = { command: null, version: null, detail: "d" }
    expect(browserDriverComponent({ ...base, status: "available", blocker: null }).status).toBe("present")
    expect(browserDriverComponent({ ...base, status: "unavailable", blocker: "B" })).toMatchObject({ status: "missing", detail: "B: d" })
    expect(browserDriverComponent({ ...base, status: "unverified-identity", blocker: "B" }).status).toBe("unverified")
  })
})
