export { LEDGER_FILE, SESSIONS_DIRECTORY, SNAPSHOT_FILE } from "./SessionFiles.js"
