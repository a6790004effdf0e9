import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NO_ENUM = { selector: 'TSEnumDeclaration', message: 'Use a literal union or `as const` instead of enum.' };
const NO_BARE_ADMIN = { selector: "CallExpression[callee.property.name='admin'][arguments.length=0]", message: 'Use openLogAdmin/withLogAdmin from @herald/kafka (admin() stays inside libs/kafka).' };
const NO_COUNT_DOCUMENTS = {
  selector: "CallExpression[callee.property.name='countDocuments']",
  message: 'Count through the store adapter (StoreAdapter.count, libs/mongo): FerretDB holds every document countDocuments counts in memory.',
};
const NO_COLLECTION = {
  selector: "CallExpression[callee.property.name='collection']",
  message: "Ask the store's queries (libs/mongo queries/<model>.ts): collections are opened inside libs/mongo only (tests may, to look at what was stored).",
};
const NO_KAFKAJS = { name: 'kafkajs', message: 'Use @herald/kafka (kafkajs stays inside libs/kafka).' };
const NO_DRIVER_TYPES = {
  name: '@herald/mongo',
  importNames: ['Db', 'MongoClient', 'Collection', 'Filter', 'Document', 'FindCursor', 'AnyBulkWriteOperation', 'ObjectId', 'Long'],
  message: "The driver's collections and filters stay inside libs/mongo: ask a query class (queries/<model>.ts) instead.",
};
const NO_DRIVER = { name: 'mongodb', message: 'Ask the store through @herald/mongo (queries/<model>.ts): the driver stays inside libs/mongo (tests may use it to look at what was stored).' };
const NO_DRIVER_PATHS = { group: ['mongodb/*'], message: NO_DRIVER.message };
// A Store is opaque (libs/mongo store-handle.ts): only tests (and libs/testing, their harness) reach the driver's database behind it.
const NO_STORE_DRIVER = { name: '@herald/mongo/testing', message: 'Hold a Store and ask its queries (libs/mongo queries/<model>.ts): the driver database behind it is for tests only.' };

export default tseslint.config(
  { ignores: ['node_modules/', '.herald/', 'docs/', 'infra/', 'eslint.config.js', 'services/console/dist/', 'libs/client/src/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // fastify plugins and handlers are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', NO_ENUM],
    },
  },
  {
    files: ['**/*.ts'],
    ignores: ['libs/kafka/**'],
    rules: { 'no-restricted-syntax': ['error', NO_ENUM, NO_BARE_ADMIN] },
  },
  {
    // kafkajs is an implementation detail of libs/kafka, the MongoDB driver one of libs/mongo: one place knows each one's types.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['libs/kafka/**', 'libs/mongo/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_KAFKAJS, NO_DRIVER, NO_DRIVER_TYPES, NO_STORE_DRIVER], patterns: [NO_DRIVER_PATHS] }] },
  },
  {
    // The tests' harness hands them the driver database behind the test store (TestEnv.driverDb).
    files: ['libs/testing/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_KAFKAJS, NO_DRIVER, NO_DRIVER_TYPES], patterns: [NO_DRIVER_PATHS] }] },
  },
  {
    files: ['libs/kafka/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_DRIVER], patterns: [NO_DRIVER_PATHS] }] },
  },
  {
    files: ['libs/mongo/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_KAFKAJS] }] },
  },
  {
    // Services ask questions of the store (libs/mongo queries/<model>.ts), never of the driver, by its name or through @herald/mongo.
    files: ['services/**/*.ts', 'services/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_KAFKAJS, NO_DRIVER, NO_DRIVER_TYPES, NO_STORE_DRIVER], patterns: [NO_DRIVER_PATHS] }],
    },
  },
  {
    // Tests may open the driver to look at what was stored (or to store what no query writes); kafkajs stays out of them too.
    files: ['**/*.test.ts'],
    ignores: ['libs/kafka/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_KAFKAJS] }] },
  },
  {
    // Tests may call countDocuments (to check the adapters against it); code counts through the store adapter, whose MongoDB one runs countDocuments.
    files: ['**/*.ts'],
    ignores: ['libs/kafka/**', '**/*.test.ts', 'libs/mongo/src/store/store-adapter.ts'],
    rules: {
      'no-restricted-syntax': ['error', NO_ENUM, NO_BARE_ADMIN, NO_COUNT_DOCUMENTS],
    },
  },
  {
    files: ['**/*.ts'],
    ignores: ['libs/kafka/**', 'libs/mongo/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', NO_ENUM, NO_BARE_ADMIN, NO_COUNT_DOCUMENTS, NO_COLLECTION],
    },
  },
  {
    files: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);
