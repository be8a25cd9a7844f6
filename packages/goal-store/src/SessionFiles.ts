/**
 * The names of a file-store session's files, in a module that imports nothing: a reader that must
 * stay light (a host's per-prompt hook) finds the files without loading the store.
 */
export const LEDGER_FILE = "ledger.jsonl"
export const SNAPSHOT_FILE = "goals.json"
/** Where the sessions other than the default one live, under the root; the default session's files are the root's own. */
export const SESSIONS_DIRECTORY = "sessions"
