/** `text` within `limit` characters, saying how many more there were. */
export const cutText = (text: string, limit: number): string => (text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`)
