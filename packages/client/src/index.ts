export * from "./FetchClient.js"
