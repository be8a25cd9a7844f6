import { describeReadmeExamples } from "@armory/config/readme-examples"

// The examples call `armory serve` running in a project whose `skills/` folder is as the README describes it.
describeReadmeExamples(`${import.meta.dirname}/..`, {
  files: {
    "skills/pdf-tools/SKILL.md":
      "---\nname: pdf-tools\ndescription: Merges, splits and fills PDF files.\nautoInject:\n  keywords: [pdf]\n---\n# PDF tools\n"
  },
  armoryServe: { args: ["--dir", "skills"], token: "secret" }
})
