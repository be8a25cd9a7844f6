import { Schema } from "effect"
import { type Page, PageNode } from "./Page.js"

/**
 * One code-mode tool: the shape `@armory/codemode` calls, declared here so that this package does
 * not depend on codemode.
 */
export interface PageTool<I, O> {
  readonly description: string
  readonly input: Schema.Codec<I, unknown>
  readonly output: Schema.Codec<O, unknown>
  run(input: I): Promise<O>
}

const Selector = Schema.Struct({ selector: Schema.String.annotate({ description: "a CSS or Playwright selector" }) })

/** The tool namespace a host binds as the `page` global of code mode. */
export const pageTools = (page: Page) => ({
  url: {
    description: "The address of the page now.",
    input: Schema.Void,
    output: Schema.String,
    run: () => page.url()
  } satisfies PageTool<void, string>,
  text: {
    description: "The rendered text of the first element matching the selector (default: the whole body).",
    input: Schema.UndefinedOr(Schema.Struct({ selector: Schema.optional(Schema.String) })),
    output: Schema.String,
    run: (input) => page.text(input?.selector)
  } satisfies PageTool<{ readonly selector?: string | undefined } | undefined, string>,
  query: {
    description: "Every element matching the selector, in document order: its tag, rendered text and attributes.",
    input: Selector,
    output: Schema.Array(PageNode),
    run: ({ selector }) => page.query(selector)
  } satisfies PageTool<{ readonly selector: string }, ReadonlyArray<PageNode>>,
  click: {
    description: "Clicks the one element matching the selector.",
    input: Selector,
    output: Schema.Null,
    run: async ({ selector }) => {
      await page.click(selector)
      return null
    }
  } satisfies PageTool<{ readonly selector: string }, null>,
  type: {
    description: "Replaces the value of the one input matching the selector with the text.",
    input: Schema.Struct({ selector: Schema.String, text: Schema.String }),
    output: Schema.Null,
    run: async ({ selector, text }) => {
      await page.type(selector, text)
      return null
    }
  } satisfies PageTool<{ readonly selector: string; readonly text: string }, null>,
  navigate: {
    description: "Loads the address (http, https or about:blank only) and waits until the document is ready.",
    input: Schema.Struct({ url: Schema.String }),
    output: Schema.Null,
    run: async ({ url }) => {
      await page.navigate(url)
      return null
    }
  } satisfies PageTool<{ readonly url: string }, null>
})
