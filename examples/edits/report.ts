export const total = (rows: ReadonlyArray<{ readonly amount: number }>): number =>
  // Refunds arrive as negative amounts, so the sum is already net of them.
  rows.reduce((sum, row) => sum + row.amount, 0)
