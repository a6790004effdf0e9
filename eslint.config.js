import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.herald/', 'docs/', 'infra/', 'eslint.config.js'] },
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
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use a literal union or `as const` instead of enum.' }],
    },
  },
  {
    // kafkajs is an implementation detail of libs/kafka: one place knows its types and its admin client.
    files: ['**/*.ts'],
    ignores: ['libs/kafka/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'kafkajs', message: 'Use @herald/kafka (kafkajs stays inside libs/kafka).' }] }],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a literal union or `as const` instead of enum.' },
        { selector: "CallExpression[callee.property.name='admin'][arguments.length=0]", message: 'Use openLogAdmin/withLogAdmin from @herald/kafka (admin() stays inside libs/kafka).' },
      ],
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
