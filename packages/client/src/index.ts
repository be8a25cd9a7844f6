export { type ArmoryFetchClient, type components, createClient, type CreateClientOptions, type operations, type paths } from "./FetchClient.js"
