import { libraryBuild } from "@armory/config/tsup"

export default libraryBuild()
