import { describeReadmeExamples } from "@armory/config/readme-examples"

// The `skills/` folder the README's examples load, as the README describes it.
describeReadmeExamples(`${import.meta.dirname}/..`, {
  files: {
    "skills/hello/SKILL.md": "---\nname: hello\ndescription: Greets the user.\n---\n# Hello\n",
    "skills/bad/SKILL.md": "---\nname: bad\ndescription: Not a boolean.\nslash: yes please\n---\n# Bad\n",
    "more-skills/hello/SKILL.md": "---\nname: hello\ndescription: Greets the user, the other way.\n---\n# Hello again\n"
  }
})
