import { describeReadmeExamples } from "@armory/config/readme-examples"

// The `skills/` folder the first example reads, and the MCP server the second starts, as the README describes them.
describeReadmeExamples(`${import.meta.dirname}/..`, {
  dependencies: ["@modelcontextprotocol/server-everything"],
  files: {
    "skills/pdf-tools/SKILL.md":
      "---\nname: pdf-tools\ndescription: Merges, splits and fills PDF files.\nautoInject:\n  keywords: [pdf]\n---\n# PDF tools\n"
  }
})
