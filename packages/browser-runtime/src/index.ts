// This version of the package exports nothing: its API is not usable yet.
export {}
