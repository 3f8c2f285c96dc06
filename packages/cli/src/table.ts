/** A plain-text table: columns padded to their widest cell, header underlined. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  const [header, ...body] = rows;
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return `${[line(header!), rule, ...body.map(line)].join('\n')}\n`;
}
