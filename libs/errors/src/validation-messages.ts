/** The parts of a validation error Herald reads; fastify and typebox both produce this shape. */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  message?: string | undefined;
  params: Record<string, unknown>;
}

/** `/notification/targets/0` → `notification.targets[0]`, prefixed for query/params (`limit`). */
function fieldName(instancePath: string, prefix: string): string {
  const parts = instancePath.split('/').filter(Boolean).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let name = prefix;
  for (const part of parts) name += /^\d+$/.test(part) ? `[${part}]` : name === '' ? part : `.${part}`;
  return name;
}

function join(parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`;
}

/**
 * Turns schema validation errors into messages that name the field and the
 * rule, one per problem: `notification.title is required`,
 * `limit must be an integer`. Branch errors of a failed `anyOf` are folded
 * into one message for the field.
 */
export function validationMessages(issues: readonly ValidationIssue[], prefix = ''): string[] {
  const failedUnions = issues.filter((issue) => issue.keyword === 'anyOf').map((issue) => issue.schemaPath);
  const messages: string[] = [];
  const orphans: ValidationIssue[] = [];
  for (const issue of issues) {
    if (failedUnions.some((path) => issue.schemaPath.startsWith(`${path}/anyOf/`))) continue;
    // A branch of a union whose own error was cut off by the validator's error bound says nothing on its own.
    if (issue.schemaPath.includes('/anyOf/')) {
      orphans.push(issue);
      continue;
    }
    // A bad key is reported once, by the propertyNames issue of its object.
    if (issue.schemaPath.endsWith('/propertyNames')) continue;
    const field = fieldName(issue.instancePath, prefix);
    const subject = field === '' ? 'body' : field;
    switch (issue.keyword) {
      case 'required': {
        const missing = (issue.params.requiredProperties ?? [issue.params.missingProperty]) as unknown[];
        for (const name of missing) messages.push(`${join(field, String(name))} is required`);
        break;
      }
      case 'additionalProperties': {
        const extra = (issue.params.additionalProperties ?? [issue.params.additionalProperty]) as unknown[];
        for (const name of Array.isArray(extra) ? extra : [extra]) messages.push(`${join(field, String(name))} is not an allowed field`);
        break;
      }
      case 'propertyNames': {
        const names = (issue.params.propertyNames ?? []) as unknown[];
        for (const name of names) messages.push(`${subject} key ${JSON.stringify(name)} is not allowed`);
        break;
      }
      case 'boolean':
        // typebox reports `additionalProperties: false` twice; the keyword above covers it.
        break;
      case 'enum':
        messages.push(`${subject} must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}`);
        break;
      case 'anyOf':
        messages.push(`${subject} does not match any allowed form`);
        break;
      case 'type':
        messages.push(`${subject} must be ${article(String(issue.params.type))}`);
        break;
      case 'minLength':
        messages.push(issue.params.limit === 1 ? `${subject} must not be empty` : `${subject} must be at least ${String(issue.params.limit)} characters`);
        break;
      case 'maxLength':
        messages.push(`${subject} must be at most ${String(issue.params.limit)} characters`);
        break;
      case 'minItems':
        messages.push(`${subject} must contain at least ${String(issue.params.limit)} item${issue.params.limit === 1 ? '' : 's'}`);
        break;
      case 'maxItems':
        messages.push(`${subject} must contain at most ${String(issue.params.limit)} items`);
        break;
      case 'maxProperties':
        messages.push(`${subject} must have at most ${String(issue.params.limit)} keys`);
        break;
      case 'minProperties':
        messages.push(Number(issue.params.limit) === 1 ? `${subject} must not be empty` : `${subject} must have at least ${String(issue.params.limit)} keys`);
        break;
      default:
        messages.push(`${subject} ${issue.message ?? 'is invalid'}`);
    }
  }
  if (messages.length === 0 && orphans.length > 0) {
    // Only branches of a cut-off union: name the value they were about (the shallowest).
    const shallowest = orphans.reduce((a, b) => (b.instancePath.split('/').length < a.instancePath.split('/').length ? b : a));
    messages.push(`${fieldName(shallowest.instancePath, prefix) || 'body'} does not match any allowed form`);
  }
  return [...new Set(messages)];
}

function article(type: string): string {
  switch (type) {
    case 'integer':
    case 'object':
    case 'array':
      return `an ${type}`;
    case 'string':
    case 'number':
    case 'boolean':
      return `a ${type}`;
    default:
      return type;
  }
}
