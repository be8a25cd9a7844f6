export { DEFAULT_MAX_BODY_BYTES, HTTP_CHANNEL_ID, serverLayer, type ServerOptions } from "./Server.js"
