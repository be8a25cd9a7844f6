export * from "./Server.js"
