/**
 * The one closed list of error codes Herald throws. Each code fixes the HTTP
 * status an API client sees and whether retrying the same operation may help.
 */
export const ERROR_CODES = {
  VALIDATION_FAILED: { status: 400, retriable: false },
  UNPROCESSABLE: { status: 422, retriable: false },
  UNAUTHORIZED: { status: 401, retriable: false },
  FORBIDDEN: { status: 403, retriable: false },
  NOT_FOUND: { status: 404, retriable: false },
  CONFLICT: { status: 409, retriable: false },
  RATE_LIMITED: { status: 429, retriable: true },
  INVALID_CONFIG: { status: 500, retriable: false },
  EVENT_DECODE_FAILED: { status: 500, retriable: false },
  KAFKA_UNAVAILABLE: { status: 503, retriable: true },
  MONGO_UNAVAILABLE: { status: 503, retriable: true },
  INFRA_UNAVAILABLE: { status: 503, retriable: false },
  /** The consumer group is rebalancing: the work is not at fault; its new owner redoes it. */
  REBALANCING: { status: 503, retriable: true },
  /** The broker refused these records for good (too large, invalid): retrying cannot help. */
  KAFKA_RECORD_REJECTED: { status: 500, retriable: false },
  INTERNAL: { status: 500, retriable: false },
} as const satisfies Record<string, { status: number; retriable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface AppErrorOptions {
  cause?: unknown;
  /** Messages safe to show a client; each names the field and the rule. */
  details?: readonly string[];
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retriable: boolean;
  readonly details: readonly string[];

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.retriable = ERROR_CODES[code].retriable;
    this.details = options.details ?? [message];
  }
}

export class ValidationError extends AppError {
  constructor(details: readonly string[], options: { cause?: unknown } = {}) {
    super('VALIDATION_FAILED', details.join('; '), { ...options, details });
  }
}

export class UnprocessableError extends AppError {
  constructor(details: readonly string[], options: { cause?: unknown } = {}) {
    super('UNPROCESSABLE', details.join('; '), { ...options, details });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authorization must be a valid bearer API key') {
    super('UNAUTHORIZED', message);
  }
}

/** The caller is known (or anonymous) but may not do this: e.g. re-point a device without proof. */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

export class ConfigError extends AppError {
  constructor(details: readonly string[]) {
    super('INVALID_CONFIG', `invalid configuration: ${details.join('; ')}`, { details });
  }
}

export class EventDecodeError extends AppError {
  constructor(message: string, options: AppErrorOptions = {}) {
    super('EVENT_DECODE_FAILED', message, options);
  }
}

export class InfrastructureError extends AppError {
  constructor(code: 'KAFKA_UNAVAILABLE' | 'MONGO_UNAVAILABLE' | 'INFRA_UNAVAILABLE', message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** Thrown where a consumer learns its group is rebalancing: abandon the chunk, commit nothing. */
export class RebalanceError extends AppError {
  constructor(message = 'the consumer group is rebalancing', options: { cause?: unknown } = {}) {
    super('REBALANCING', message, options);
  }
}

/** Whether the error or any error in its cause chain says the group is rebalancing. */
export function isRebalance(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 10; depth += 1) {
    if (isAppError(current) && current.code === 'REBALANCING') return true;
    current = current.cause;
  }
  return false;
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Is retrying worthwhile? Unknown errors are not retried: they are bugs or bad data. */
export function isRetriable(error: unknown): boolean {
  return isAppError(error) ? error.retriable : false;
}

/** The error and its causes, outermost first, as plain data for logs and dead letters. */
export function errorChain(error: unknown): Array<{ name: string; message: string; code?: string }> {
  const chain: Array<{ name: string; message: string; code?: string }> = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 10) {
    if (current instanceof Error) {
      const code = isAppError(current) ? current.code : (current as { code?: unknown }).code;
      chain.push({ name: current.name, message: current.message, ...(typeof code === 'string' ? { code } : {}) });
      current = current.cause;
    } else {
      chain.push({ name: 'NonError', message: typeof current === 'string' ? current : JSON.stringify(current) });
      current = undefined;
    }
  }
  return chain;
}
