/**
 * A well-formed APNs device token (hex, 64 digits or more) that still reads
 * as its label: the label's UTF-8 bytes in hex, padded with zeros to 64
 * digits. Prefixes survive, so a fake's token-prefix rule can aim at a group
 * of devices: `apnsToken('gone-1')` starts with `apnsTokenPrefix('gone-')`.
 * Labels up to 100 bytes.
 */
export function apnsToken(label: string): string {
  return apnsTokenPrefix(label).padEnd(64, '0');
}

/** The start of every `apnsToken` whose label starts with `label`. */
export function apnsTokenPrefix(label: string): string {
  return Buffer.from(label, 'utf8').toString('hex');
}

/** The label an `apnsToken` was made from (tests that read the tokens a fake received keep comparing labels). */
export function apnsTokenLabel(token: string): string {
  return Buffer.from(token, 'hex').toString('utf8').replace(/\0+$/, '');
}
