/** Vite bundles a stylesheet a module imports with that module's chunk. */
declare module '*.css';
