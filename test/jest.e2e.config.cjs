const base = require('./jest.base.cjs');

// One database for the run: embedded PGlite by default, a fresh database on the server named by
// TEST_DATABASE_URL otherwise. Started in the parent process (PGlite cannot start inside jest's VM).
module.exports = {
  ...base,
  displayName: 'e2e',
  testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testSequencer: '<rootDir>/test/support/e2e-sequencer.cjs',
  // A test or hook of its own may take minutes on a slow machine with the other engine's suite beside it (CI).
  testTimeout: 180000,
};
