export { buildApp } from './build-app.ts';
export type { AppDeps } from './app-deps.ts';
export { openApiDocument } from './openapi-document.ts';
