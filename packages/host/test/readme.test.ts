import { describeReadmeExamples } from "@armory/config/readme-examples"

// The `skills/` folder the first example reads, as the README describes it.
describeReadmeExamples(`${import.meta.dirname}/..`, {
  files: {
    "skills/pdf-tools/SKILL.md":
      "---\nname: pdf-tools\ndescription: Merges, splits and fills PDF files.\nautoInject:\n  keywords: [pdf]\n---\n# PDF tools\n"
  }
})
