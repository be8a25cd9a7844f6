import { packageTestConfig } from "@armory/config/vitest"

export default packageTestConfig()
