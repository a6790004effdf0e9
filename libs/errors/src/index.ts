export * from './app-error.ts';
export * from './validation-messages.ts';
