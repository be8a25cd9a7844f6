import { describeReadmeExamples } from "@armory/config/readme-examples"

describeReadmeExamples(`${import.meta.dirname}/..`)
