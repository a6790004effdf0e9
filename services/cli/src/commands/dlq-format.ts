import { decodeEvent, type HeraldEvent } from '@herald/events';
import type { DeadLetterEntry, ErrorLink } from '@herald/kafka';

/** Bytes of a raw value shown before it is cut. */
const RAW_SHOWN = 4_096;

/** Left-aligned columns; the last column is not padded. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ');
  return [line(header), ...rows.map(line)];
}

export type ShownValue =
  | { kind: 'event'; event: HeraldEvent }
  | { kind: 'json'; json: unknown; problem: string }
  | { kind: 'text'; text: string; bytes: number; problem: string }
  | { kind: 'binary'; base64: string; bytes: number; problem: string }
  | { kind: 'none'; problem: string };

/** A record value as an operator can read it: the Herald event it decodes to, else JSON, text or base64 (cut at 4 KB). */
export function showValue(value: Buffer | null): ShownValue {
  if (value === null || value.length === 0) return { kind: 'none', problem: 'no value (tombstone or empty)' };
  try {
    return { kind: 'event', event: decodeEvent(value) };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    const text = value.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(value)) {
      try {
        return { kind: 'json', json: JSON.parse(text), problem };
      } catch {
        return { kind: 'text', text: text.slice(0, RAW_SHOWN), bytes: value.length, problem };
      }
    }
    return { kind: 'binary', base64: value.subarray(0, RAW_SHOWN).toString('base64'), bytes: value.length, problem };
  }
}

const errorLine = (link: ErrorLink) => `${link.name}${link.code === undefined ? '' : ` [${link.code}]`}: ${link.message}`;

/** A dead letter for `herald dlq show`: lines for people (callers escape control characters) and the same as JSON. */
export function describeDeadLetter(entry: DeadLetterEntry): { lines: string[]; json: Record<string, unknown> } {
  const value = showValue(entry.value);
  const source = `${entry.source.topic}:${entry.source.partition}:${entry.source.offset}`;
  const lines = [
    `dead letter   ${entry.ref}`,
    `kind          ${entry.kind}`,
    `source        ${source}${entry.source.timestamp === undefined ? '' : ` (written ${entry.source.timestamp})`}`,
    `group         ${entry.group}`,
    `failed at     ${entry.failedAt}`,
    `redriven      ${entry.redriveCount} time${entry.redriveCount === 1 ? '' : 's'} before this failure${entry.redrivenFrom === undefined ? '' : ` (last from ${entry.redrivenFrom})`}`,
    `key           ${entry.key === null ? '(none)' : JSON.stringify(entry.key.toString('utf8'))}`,
    'headers',
    ...Object.entries(entry.headers).map(([name, text]) => `  ${name}: ${text}`),
  ];
  switch (value.kind) {
    case 'event':
      lines.push(`value         a Herald event: ${value.event.type} v${value.event.version}`, ...indent(JSON.stringify(value.event, null, 2)));
      break;
    case 'json':
      lines.push(`value         JSON, not a valid Herald event (${value.problem})`, ...indent(JSON.stringify(value.json, null, 2)));
      break;
    case 'text':
      lines.push(`value         text, ${value.bytes} bytes (${value.problem})${value.bytes > RAW_SHOWN ? `, first ${RAW_SHOWN} shown` : ''}`, ...indent(JSON.stringify(value.text)));
      break;
    case 'binary':
      lines.push(`value         binary, ${value.bytes} bytes, base64${value.bytes > RAW_SHOWN ? ` of the first ${RAW_SHOWN}` : ''}`, ...indent(value.base64));
      break;
    case 'none':
      lines.push(`value         ${value.problem}`);
  }
  lines.push('error chain', ...entry.error.map((link, index) => `  ${index + 1}. ${errorLine(link)}`));
  if (entry.history.length > 0) {
    lines.push('earlier failures (oldest first)');
    for (const failure of entry.history) lines.push(`  ${failure.failed_at}  ${failure.group} at ${failure.source}: ${failure.error[0] === undefined ? '(no error recorded)' : errorLine(failure.error[0])}`);
  }
  const json = {
    ref: entry.ref,
    kind: entry.kind,
    source: entry.source,
    group: entry.group,
    failed_at: entry.failedAt,
    redrive_count: entry.redriveCount,
    redriven_from: entry.redrivenFrom ?? null,
    key: entry.key?.toString('utf8') ?? null,
    headers: entry.headers,
    value,
    error: entry.error,
    history: entry.history,
  };
  return { lines, json };
}

function indent(text: string): string[] {
  return text.split('\n').map((line) => `  ${line}`);
}
