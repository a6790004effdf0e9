/**
 * One CSV line (RFC 4180): a field holding a comma, quote or line break is
 * quoted, quotes doubled. A text field starting with `=`, `+`, `-`, `@`, tab
 * or carriage return gets a leading `'` so a spreadsheet shows it instead of
 * running it as a formula (receipts carry provider reasons Herald does not control).
 */
export function csvLine(values: ReadonlyArray<string | number | null | undefined>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
