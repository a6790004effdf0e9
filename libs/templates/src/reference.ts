import { createHash } from 'node:crypto';

/** Namespace of template ids (UUID v5 of project and name); fixed forever: changing it re-keys every template. */
const TEMPLATE_NAMESPACE = Buffer.from('3c5d0f1e8a2b4e6f9c7d1b2a3e4f5a6c', 'hex');

/** A template's id, derived from (project, name): a name finds its template without an index, and two creations of one name collide. */
export function templateIdFor(projectId: string, name: string): string {
  // RFC 9562 UUID v5: SHA-1 of namespace and name, version and variant bits set.
  const bytes = createHash('sha1').update(TEMPLATE_NAMESPACE).update(`template\u0000${projectId}\u0000${name}`, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a send's `template` names: a template (by id or name) and maybe a version. */
export interface TemplateReference {
  /** The template's id (a name is turned into its id). */
  id: string;
  /** As the client wrote it, for messages. */
  written: string;
  version?: number;
}

/**
 * Reads `<id or name>[@<version>]` (pure): the text after the last `@` is a
 * version when it is a positive integer; otherwise the whole text is the
 * name (names may hold `@`). A UUID is taken as an id; anything else as a
 * name. Undefined for an empty reference or version 0.
 */
export function parseTemplateReference(projectId: string, reference: string): TemplateReference | undefined {
  const at = reference.lastIndexOf('@');
  const tail = at < 0 ? '' : reference.slice(at + 1);
  const versioned = /^[0-9]{1,9}$/.test(tail);
  const name = versioned ? reference.slice(0, at) : reference;
  const version = versioned ? Number(tail) : undefined;
  if (name.length === 0 || version === 0) return undefined;
  const id = UUID.test(name) ? name.toLowerCase() : templateIdFor(projectId, name);
  return { id, written: name, ...(version === undefined ? {} : { version }) };
}
