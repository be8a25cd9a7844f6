// Preloaded with `node --import`: appends the URL of every module the process loads to the file
// ARMORY_TRACE_MODULES names, so a test can see what a command path loads.
import { appendFileSync } from "node:fs"
import { registerHooks } from "node:module"

const file = process.env.ARMORY_TRACE_MODULES
if (file !== undefined) {
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(file, `${url}\n`)
      return nextLoad(url, context)
    }
  })
}
