type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A client's raw `apns` / `fcm` object laid over what Herald built: objects
 * merge key by key, anything else (strings, numbers, arrays, null) replaces.
 * Pure; neither input is changed.
 */
export function mergeOverride<T extends Json>(built: T, override: Json | undefined): T {
  // Not an object (absent, or a request that failed validation being sized anyway): nothing to merge.
  if (!isObject(override)) return built;
  const merged: Json = { ...built };
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? mergeOverride(current, value) : value;
  }
  return merged as T;
}
