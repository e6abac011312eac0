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
  // One file at a time (they share the database), in one worker process recycled once its heap passes the
  // limit. In jest's own process (--runInBand) the heap grew by 40 MB a file to 3 GB by the last file: each
  // file's vm context outlives it (jestjs/jest#11956, jest's answer to which is this limit), and collecting a
  // heap that size is the likeliest cause of the multi-second stalls that cost the mixed-load test requests in
  // CI. A worker also puts the embedded database (globalSetup starts it here, in the parent) in a process of
  // its own, as the server is: the mixed-load test on PGlite went from 103 to 129 requests a second.
  maxWorkers: 1,
  workerIdleMemoryLimit: '700MB',
  // A test or hook of its own may take minutes on a slow machine with the other engine's suite beside it (CI).
  testTimeout: 180000,
};
