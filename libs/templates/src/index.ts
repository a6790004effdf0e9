export * from './content.ts';
export { pickLocale, isLocaleTag, normaliseLocale, LOCALE_PATTERN } from './locale.ts';
export * from './render.ts';
export * from './check.ts';
export * from './reference.ts';
export * from './variants.ts';
export * from './duration.ts';
export * from './batch.ts';
