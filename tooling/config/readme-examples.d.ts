/** Registers vitest tests that run each ```ts block of the package README and check its `// prints:` comments. */
export declare const describeReadmeExamples: (packageDir: string) => void
