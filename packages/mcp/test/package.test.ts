import { describePackageContract } from "@armory/config/package-contract"

describePackageContract(`${import.meta.dirname}/..`)
