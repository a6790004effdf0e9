import { LRUCache } from 'lru-cache';
import { TOPICS } from '@herald/events';
import type { AdminStore } from '@herald/admin';
import { AppError, NotFoundError, ValidationError } from '@herald/errors';
import { openLogReader, type HeraldKafka, type LogPosition, type LogReader, type LogRecord } from '@herald/kafka';
import { decodeStreamId, encodeStreamId, STREAM_EVENT_TYPES } from '../domain/event-stream.ts';
import { mayOpenStream } from '../domain/stream-slots.ts';
import { RateLimitedError } from '../retry-after.ts';
import type { ApiKeyCache } from './api-key-cache.ts';

export const STREAM_TOPICS = [TOPICS.notificationEvents, TOPICS.deviceEvents] as const;

export interface StreamLimits {
  /** Streams one process serves at once. */
  perProcess: number;
  perProject: number;
  /** A stream ends after this; the client reconnects with its last id. */
  maxDurationMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { perProcess: 100, perProject: 5, maxDurationMs: 3_600_000 };

/** A stream handed to the route: it reads the log from `start` and calls back with every record. */
export interface OpenStream {
  start: LogPosition;
  reader: LogReader;
  close(): Promise<void>;
}

/** A project's stream ids: made and checked with its stream key. */
export interface StreamIds {
  encode(position: LogPosition): string;
  /** The position to start from ('end' without an id); 400 for an id this project's stream did not give. */
  startOf(lastEventId: string | undefined): LogPosition | 'end';
}

/**
 * Opens log readers for event streams, within the limits: each stream reads
 * every record of the notification and device topics (all projects) and the
 * route keeps the project's own, so the count of streams is what bounds the
 * cost (see docs/event-stream.md).
 */
export class EventStreamService {
  readonly #kafka: HeraldKafka | undefined;
  readonly #limits: StreamLimits;
  readonly #admin: AdminStore;
  readonly #keys: ApiKeyCache;
  readonly #onOpenCount: (open: number) => void;
  readonly #streamKeys = new LRUCache<string, string>({ max: 10_000 });
  #open = 0;
  readonly #byProject = new Map<string, number>();

  constructor(deps: { kafka?: HeraldKafka | undefined; limits: StreamLimits; admin: AdminStore; keys: ApiKeyCache; onOpenCount?: (open: number) => void }) {
    this.#kafka = deps.kafka;
    this.#limits = deps.limits;
    this.#admin = deps.admin;
    this.#keys = deps.keys;
    this.#onOpenCount = deps.onOpenCount ?? (() => undefined);
  }

  async idsFor(projectId: string): Promise<StreamIds> {
    let key = this.#streamKeys.get(projectId);
    if (key === undefined) {
      key = (await this.#admin.streamKey(projectId)) ?? undefined;
      if (key === undefined) throw new NotFoundError(`project ${projectId} does not exist`);
      this.#streamKeys.set(projectId, key);
    }
    const streamKey = key;
    return {
      encode: (position) => encodeStreamId(streamKey, projectId, position),
      startOf: (lastEventId) => {
        if (lastEventId === undefined || lastEventId === '') return 'end';
        const position = decodeStreamId(streamKey, projectId, lastEventId, STREAM_TOPICS);
        if (position === undefined) throw new ValidationError(['Last-Event-ID is not an id this project\'s stream gave (resume with the id of the last event received, or leave it out to start now)']);
        return position;
      },
    };
  }

  typesOf(types: string | undefined): Set<string> {
    if (types === undefined) return new Set(STREAM_EVENT_TYPES);
    const asked = types.split(',').map((type) => type.trim()).filter(Boolean);
    const unknown = asked.filter((type) => !(STREAM_EVENT_TYPES as readonly string[]).includes(type));
    if (unknown.length > 0) throw new ValidationError([`types must be a comma-separated list of ${STREAM_EVENT_TYPES.join(', ')} (not ${unknown.join(', ')})`]);
    return new Set(asked);
  }

  get maxDurationMs(): number {
    return this.#limits.maxDurationMs;
  }

  /** How often an open stream asks whether its key still holds: at the key cache's pace, at least once a second. */
  get keyCheckMs(): number {
    return Math.max(1_000, this.#keys.ttlMs);
  }

  /** Whether the key still belongs to the project (a store that does not answer is not a revocation). */
  async keyStillValid(apiKey: string, projectId: string): Promise<boolean> {
    try {
      return (await this.#keys.authenticate(apiKey))?.projectId === projectId;
    } catch {
      return true;
    }
  }

  async open(projectId: string, from: LogPosition | 'end', onRecord: (record: LogRecord) => Promise<void>): Promise<OpenStream> {
    if (this.#kafka === undefined) throw new AppError('INFRA_UNAVAILABLE', 'event streams are not available on this API process');
    const projectStreams = this.#byProject.get(projectId) ?? 0;
    if (!mayOpenStream({ open: this.#open, projectOpen: projectStreams, perProcess: this.#limits.perProcess, perProject: this.#limits.perProject })) {
      throw new RateLimitedError(
        `on event streams (at most ${this.#limits.perProject} open per project, ${this.#limits.perProcess} per API process; ` +
          "a project's second and later streams only while half of the process's are free)",
        5,
      );
    }
    this.#open += 1;
    this.#onOpenCount(this.#open);
    this.#byProject.set(projectId, projectStreams + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#open -= 1;
      this.#onOpenCount(this.#open);
      const left = (this.#byProject.get(projectId) ?? 1) - 1;
      if (left === 0) this.#byProject.delete(projectId);
      else this.#byProject.set(projectId, left);
    };
    try {
      const reader = await openLogReader({ kafka: this.#kafka, topics: STREAM_TOPICS, from, onRecord, purpose: 'stream' });
      return {
        start: reader.start,
        reader,
        close: async () => {
          release();
          await reader.close();
        },
      };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Streams open in this process (for tests and metrics). */
  get openCount(): number {
    return this.#open;
  }
}
