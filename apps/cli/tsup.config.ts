import { appBuild } from "@armory/config/tsup"

export default appBuild()
