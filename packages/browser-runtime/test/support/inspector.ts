import { spawn } from "node:child_process"

/** A real Node.js inspector: its `/json/version` answers, but it is not a browser. */
export const startNodeInspector = async (): Promise<{ readonly url: string; readonly stop: () => Promise<void> }> => {
  const child = spawn(process.execPath, ["--inspect=127.0.0.1:0", "-e", "setInterval(() => {}, 1000)"], {
    stdio: ["ignore", "ignore", "pipe"]
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const port = await new Promise<number>((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => reject(new Error("the inspector did not start")), 10_000)
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
      const match = /ws:\/\/127\.0\.0\.1:(\d+)\//.exec(output)
      if (match?.[1] !== undefined) {
        clearTimeout(timer)
        resolve(Number(match[1]))
      }
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGKILL")
      await exited
    }
  }
}
